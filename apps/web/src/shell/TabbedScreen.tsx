// A screen made of tabs (views loaded lazily), the chosen tab kept per browser tab, not in the URL:
// a generic list inside rewrites the query string. A link may open a tab (?tab=stats), once.
import { Box, Paper, Tab, Tabs } from '@mui/material';
import { type ComponentType, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Loading } from '../lib/Loading';

export interface ScreenTab {
  id: string;
  label: string;
  Component: ComponentType;
}

export function TabbedScreen({
  tabs,
  storageKey,
  label,
}: {
  tabs: readonly ScreenTab[];
  storageKey: string;
  label: string;
}) {
  const [sp] = useSearchParams();
  const [tab, setTab] = useState(() => {
    const asked = sp.get('tab');
    return tabs.some((t) => t.id === asked) ? asked : sessionStorage.getItem(storageKey);
  });
  const current = tabs.find((t) => t.id === tab) ?? tabs[0];
  const { Component } = current;
  return (
    <Box>
      <Paper sx={{ mb: 2 }}>
        <Tabs
          value={current.id}
          onChange={(_, v) => {
            sessionStorage.setItem(storageKey, v);
            setTab(v);
          }}
          aria-label={label}
        >
          {tabs.map((t) => (
            <Tab key={t.id} value={t.id} label={t.label} />
          ))}
        </Tabs>
      </Paper>
      <Suspense fallback={<Loading />}>
        <Component />
      </Suspense>
    </Box>
  );
}
