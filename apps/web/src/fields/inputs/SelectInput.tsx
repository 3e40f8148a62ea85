// Select: plain or autocomplete, single or multiple, chips, avatar items, clearable, and the
// remote search of SPEC §5 (shouldSearch) through /api/{resource}/query-search: a catalogue whose
// contract says `lookupMode: 'search'` is always searched, never loaded whole. A default of 0
// picks the first option of a new record once the options arrive (SPEC §4), loaded ones too.
import { messages, resourceCalls } from '@app/contracts';
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
import { call } from '../../lib/http';
import { isNewRecord, shouldSearch } from '../rules';
import type { Option } from '../types';
import { filterQuery, optionFilter, useOptions } from '../useOptions';
import { type InputProps, labelOf } from './props';

type Id = string | number;

export function SelectInput(p: InputProps<Id | Id[] | null>) {
  const { field } = p;
  const { options: loaded, loading, waiting, remote } = useOptions(field, p.values, p.value);
  const key = field.optionValue ?? 'id';
  const labelKey = field.optionLabel ?? 'name';
  const [found, setFound] = useState<Option[]>([]);
  // The ids of the last server answer: shown even when they match by another field (a code).
  const [lastFound, setLastFound] = useState<Set<string>>(new Set());
  const [searching, setSearching] = useState(false);
  const options = useMemo(() => {
    const seen = new Set(loaded.map((o) => String(o[key])));
    const out = [...loaded];
    for (const o of found) {
      if (seen.has(String(o[key]))) continue;
      seen.add(String(o[key]));
      out.push(o);
    }
    return out;
  }, [loaded, found, key]);
  const byId = (id: unknown) => options.find((o) => String(o[key]) === String(id));
  const text = (o: Option) => String(o[labelKey] ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // SPEC §4: a new record's select with default 0 takes the first option, also when the options
  // come from the server; again after the form is reset, never after the user chose (or emptied).
  const touched = useRef(false);
  const choose = (v: Id | Id[] | null) => {
    touched.current = true;
    p.onChange(v);
  };
  const empty = p.value === undefined || p.value === null || (p.value as unknown) === '';
  const fresh = isNewRecord(p.values);
  const first = options[0]?.[key] as Id | undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: applied when the options, the value or the record change
  useEffect(() => {
    if (field.default !== 0 || touched.current || first === undefined || !empty || !fresh) return;
    p.onChange(field.multiple ? [first] : first);
  }, [first, empty, fresh, field.default]);

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

  if (!field.autocomplete && !remote) {
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
          if (multiple) choose(v as Id[]);
          else if (v === '') choose(null);
          else choose((byId(v)?.[key] as Id) ?? (v as Id));
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
    if (!remote || !field.resource || reason !== 'input') return;
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
        const r = (await call(resourceCalls(field.resource!).search, {
          query: { query: t, ...filterQuery(filter) },
        })) as Option[];
        setFound((prev) => [...prev, ...(r ?? [])]);
        setLastFound(new Set((r ?? []).map((o) => String(o[key]))));
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
      // A server answer may match by another field than the name (a dealer's code).
      filterOptions={
        remote
          ? (list, state) => {
              const q = state.inputValue.trim().toUpperCase();
              return list.filter(
                (o) => !q || lastFound.has(String(o[key])) || text(o).toUpperCase().includes(q),
              );
            }
          : undefined
      }
      loadingText={messages.loading}
      noOptionsText={messages.emptySelect}
      getOptionLabel={text}
      isOptionEqualToValue={(a, b) => String(a[key]) === String(b[key])}
      onChange={(_, v) => {
        if (multiple) choose(((v as Option[]) ?? []).map((o) => o[key] as Id));
        else choose(v ? ((v as Option)[key] as Id) : null);
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
                // The item's key goes to JSX directly (React warns about a key inside a spread).
                const { key: _itemKey, ...item } = getItemProps({ index }) as ReturnType<
                  typeof getItemProps
                > & {
                  key?: string;
                };
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
