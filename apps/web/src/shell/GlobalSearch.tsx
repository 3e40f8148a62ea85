// The top bar's search box (Ctrl+K or /): dealers, sales, agreements, documents and users the
// server lets the user see (GET /api/search), grouped by kind; a hit opens its screen filtered to
// it, with the record's dialog where the screen has one (?query=...&record=id).
import {
  SEARCH_KINDS,
  SEARCH_MIN_LENGTH,
  type SearchAnswer,
  type SearchHit,
  type SearchKind,
  searchMessages,
  shellCalls,
} from '@app/contracts';
import SearchIcon from '@mui/icons-material/Search';
import { Autocomplete, Box, InputAdornment, TextField, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { useNavigate } from 'react-router';
import { call } from '../lib/http';
import { screenByName } from '../lib/screens';

const KIND = Object.fromEntries(SEARCH_KINDS.map((k) => [k.kind, k])) as Record<
  SearchKind,
  (typeof SEARCH_KINDS)[number]
>;

/** Where a hit opens: its screen, filtered to it, with its dialog (documents: the extranet search). */
export function hitAddress(hit: SearchHit): string | undefined {
  const path = screenByName(KIND[hit.kind].screen)?.path;
  if (!path) return undefined;
  const q = new URLSearchParams({ query: hit.title });
  if (hit.kind !== 'documents') q.set('record', String(hit.id));
  return `${path}?${q}`;
}

export function GlobalSearch() {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setTyped(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  const enough = typed.length >= SEARCH_MIN_LENGTH;
  const found = useQuery({
    queryKey: ['search', typed],
    queryFn: () =>
      call(shellCalls.search, { query: { q: typed } }, { silent: true }) as Promise<SearchAnswer>,
    enabled: enough,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = useMemo(
    () => (enough ? (found.data?.groups.flatMap((g) => g.hits) ?? []) : []),
    [found.data, enough],
  );
  const focus = () => {
    input.current?.focus();
    input.current?.select();
  };
  useHotkeys('ctrl+k, meta+k', focus, { enableOnFormTags: true, preventDefault: true });
  useHotkeys('slash', focus, { preventDefault: true });

  return (
    <Autocomplete<SearchHit, false, false, false>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options}
      filterOptions={(o) => o}
      groupBy={(h) => KIND[h.kind].title}
      getOptionLabel={(h) => h.title}
      isOptionEqualToValue={(a, b) => a.kind === b.kind && a.id === b.id}
      getOptionKey={(h) => `${h.kind}-${h.id}`}
      value={null}
      inputValue={text}
      onInputChange={(_, v, reason) => {
        if (reason !== 'reset') setText(v);
      }}
      onChange={(_, hit) => {
        const to = hit && hitAddress(hit);
        if (!to) return;
        setOpen(false);
        setText('');
        input.current?.blur();
        navigate(to);
      }}
      loading={enough && found.isFetching}
      loadingText="Buscando…"
      noOptionsText={
        text.trim().length < SEARCH_MIN_LENGTH
          ? searchMessages.tooShort
          : searchMessages.empty(typed || text.trim())
      }
      blurOnSelect
      forcePopupIcon={false}
      clearOnEscape
      size="small"
      sx={{ width: { xs: 180, sm: 260, lg: 340 } }}
      slotProps={{ popper: { sx: { minWidth: 360 } } }}
      renderOption={({ key, ...props }, h) => (
        <Box component="li" key={key} {...props} sx={{ display: 'block !important' }}>
          <Typography variant="body2" fontWeight={600} noWrap>
            {h.title}
          </Typography>
          {h.subtitle && (
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {h.subtitle}
            </Typography>
          )}
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={input}
          placeholder="Buscar (Ctrl+K)"
          slotProps={{
            input: {
              ...params.InputProps,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: {
              ...params.inputProps,
              'aria-label': 'Búsqueda global',
              'aria-keyshortcuts': 'Control+K /',
            },
          }}
          sx={{
            bgcolor: 'background.paper',
            borderRadius: 1,
            '& .MuiOutlinedInput-notchedOutline': { border: 'none' },
          }}
        />
      )}
    />
  );
}
