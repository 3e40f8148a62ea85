// Select: plain or autocomplete, single or multiple, chips, avatar items, clearable, and the
// remote search of SPEC §5 (shouldSearch) through /api/{resource}/query-search.
import { messages } from '@app/contracts';
import {
  Autocomplete,
  Avatar,
  Box,
  Chip,
  CircularProgress,
  ListItemAvatar,
  ListItemText,
  MenuItem,
  TextField,
} from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { http } from '../../api/http';
import { shouldSearch } from '../rules';
import type { Option } from '../types';
import { filterQuery, optionFilter, useOptions } from '../useOptions';
import { type InputProps, labelOf } from './props';

type Id = string | number;

export function SelectInput(p: InputProps<Id | Id[] | null>) {
  const { field } = p;
  const { options: loaded, loading, waiting } = useOptions(field, p.values);
  const key = field.optionValue ?? 'id';
  const labelKey = field.optionLabel ?? 'name';
  const [found, setFound] = useState<Option[]>([]);
  const [searching, setSearching] = useState(false);
  const options = useMemo(() => {
    const seen = new Set(loaded.map((o) => o[key]));
    return [...loaded, ...found.filter((o) => !seen.has(o[key]))];
  }, [loaded, found, key]);
  const byId = (id: unknown) => options.find((o) => String(o[key]) === String(id));
  const text = (o: Option) => String(o[labelKey] ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const renderItem = (o: Option) =>
    field.avatar ? (
      <>
        <ListItemAvatar sx={{ minWidth: 40 }}>
          <Avatar src={(o.avatar as string) ?? undefined} sx={{ width: 28, height: 28 }}>
            {text(o)[0]}
          </Avatar>
        </ListItemAvatar>
        <ListItemText primary={text(o)} />
      </>
    ) : field.chips ? (
      <Chip size="small" label={text(o)} />
    ) : (
      text(o)
    );

  const helperText = p.error ?? field.helperText ?? ' ';

  if (!field.autocomplete && !field.remote) {
    const multiple = !!field.multiple;
    const value = multiple ? ((p.value as Id[]) ?? []) : (p.value ?? '');
    return (
      <TextField
        select
        name={field.name}
        label={labelOf(field)}
        required={field.required}
        disabled={field.disabled || waiting}
        error={!!p.error}
        helperText={helperText}
        value={options.length || multiple ? value : ''}
        onChange={(e) => {
          const v = e.target.value as unknown;
          if (multiple) p.onChange(v as Id[]);
          else if (v === '') p.onChange(null);
          else p.onChange((byId(v)?.[key] as Id) ?? (v as Id));
        }}
        onBlur={p.onBlur}
        inputRef={p.inputRef}
        slotProps={{
          select: {
            multiple,
            readOnly: field.readOnly,
            renderValue: multiple
              ? (sel: unknown) => (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {(sel as Id[]).map((id) => (
                      <Chip key={String(id)} size="small" label={byId(id) ? text(byId(id)!) : String(id)} />
                    ))}
                  </Box>
                )
              : undefined,
          },
        }}
      >
        {field.clearable && !multiple && (
          <MenuItem value="">
            <em>Ninguno</em>
          </MenuItem>
        )}
        {options.length === 0 && (
          <MenuItem disabled value="__empty">
            {loading ? messages.loading : messages.emptySelect}
          </MenuItem>
        )}
        {options.map((o) => (
          <MenuItem key={String(o[key])} value={o[key] as Id}>
            {renderItem(o)}
          </MenuItem>
        ))}
      </TextField>
    );
  }

  const multiple = !!field.multiple;
  const current = multiple
    ? ((p.value as Id[]) ?? []).map((id) => byId(id)).filter((o): o is Option => !!o)
    : (byId(p.value) ?? null);

  const onInput = (t: string, reason: string) => {
    if (!field.remote || !field.resource || reason !== 'input') return;
    clearTimeout(timer.current);
    if (
      !shouldSearch({
        text: t,
        minLength: field.searchMinLength,
        readOnly: field.readOnly,
        disabled: field.disabled,
        options,
        optionLabel: labelKey,
      })
    )
      return;
    timer.current = setTimeout(async () => {
      setSearching(true);
      try {
        const { filter } = optionFilter(field, p.values);
        const r = await http.get<Option[]>(`/${field.resource}/query-search`, {
          query: t,
          ...filterQuery(filter),
        });
        setFound((prev) => [...prev, ...(r ?? [])]);
      } catch {
        // the toast already told the user
      } finally {
        setSearching(false);
      }
    }, 250);
  };

  return (
    <Autocomplete<Option, boolean, boolean, false>
      multiple={multiple}
      options={options}
      value={current as any}
      disabled={field.disabled || waiting}
      readOnly={field.readOnly}
      disableClearable={!field.clearable && !multiple}
      loading={loading || searching}
      loadingText={messages.loading}
      noOptionsText={messages.emptySelect}
      getOptionLabel={text}
      isOptionEqualToValue={(a, b) => String(a[key]) === String(b[key])}
      onChange={(_, v) => {
        if (multiple) p.onChange(((v as Option[]) ?? []).map((o) => o[key] as Id));
        else p.onChange(v ? ((v as Option)[key] as Id) : null);
      }}
      onInputChange={(_, t, reason) => onInput(t, reason)}
      onBlur={p.onBlur}
      renderOption={(props, o) => {
        const { key: k, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={k} {...rest}>
            {renderItem(o)}
          </Box>
        );
      }}
      renderValue={
        multiple
          ? (vals, getItemProps) =>
              (vals as Option[]).map((o, index) => {
                const item = getItemProps({ index });
                return (
                  <Chip
                    key={String(o[key])}
                    size="small"
                    label={text(o)}
                    avatar={field.avatar ? <Avatar src={(o.avatar as string) ?? undefined} /> : undefined}
                    {...item}
                  />
                );
              })
          : undefined
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          label={labelOf(field)}
          required={field.required}
          error={!!p.error}
          helperText={helperText}
          inputRef={p.inputRef}
          InputProps={{
            ...params.InputProps,
            endAdornment: (
              <>
                {searching ? <CircularProgress size={16} /> : null}
                {params.InputProps.endAdornment}
              </>
            ),
          }}
        />
      )}
    />
  );
}
