// Location picker (SPEC §2, §4): department → province → district, each filtered by its parent,
// three equal columns; a change moves the focus to the next select. Emits the district id or
// the full object {department_id, province_id, district_id}.
import { districtContract, messages, provinceContract, resourceCalls } from '@app/contracts';
import { Autocomplete, Grid, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../lib/http';
import type { InputProps } from './props';

interface Place {
  id: number;
  name: string;
  department_id?: number;
  province_id?: number;
}

export interface Location {
  department_id: number | null;
  province_id: number | null;
  district_id: number | null;
}

const EMPTY: Location = { department_id: null, province_id: null, district_id: null };

/** SPEC §4: the location picker's initial setup (parents of a given district) runs after 100 ms. */
export const LOCATION_SETUP_DELAY_MS = 100;

function usePlaces(path: string, filter?: [string, number | null]) {
  const waiting = !!filter && !filter[1];
  return useQuery({
    queryKey: ['options', path, filter?.[1] ?? null],
    queryFn: () =>
      call(resourceCalls(path).list, {
        query: { perPage: -1, ...(filter ? { [`filter[${filter[0]}]`]: String(filter[1]) } : {}) },
      }) as Promise<Place[]>,
    enabled: !waiting,
    staleTime: 10 * 60_000,
  });
}

function PlaceSelect(props: {
  label: string;
  name: string;
  options: Place[];
  value: number | null;
  onChange: (id: number | null) => void;
  disabled?: boolean;
  readOnly?: boolean;
  required?: boolean;
  error?: string;
  inputRef?: React.Ref<HTMLInputElement>;
  loading?: boolean;
}) {
  const current = props.options.find((o) => o.id === props.value) ?? null;
  return (
    <Autocomplete<Place>
      options={props.options}
      value={current}
      disabled={props.disabled}
      readOnly={props.readOnly}
      loading={props.loading}
      loadingText={messages.loading}
      noOptionsText={messages.emptySelect}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, v) => props.onChange(v?.id ?? null)}
      renderInput={(params) => (
        <TextField
          {...params}
          name={props.name}
          label={props.label}
          required={props.required}
          error={!!props.error}
          helperText={props.error ?? ' '}
          inputRef={props.inputRef}
        />
      )}
    />
  );
}

export function LocationPicker(p: InputProps<number | Location | null>) {
  const { field } = p;
  const emitObject = field.emit === 'object';
  const fromValue: Location =
    emitObject && p.value && typeof p.value === 'object'
      ? { ...EMPTY, ...(p.value as Location) }
      : { ...EMPTY, district_id: typeof p.value === 'number' ? p.value : null };
  const [loc, setLoc] = useState<Location>(fromValue);
  const provinceRef = useRef<HTMLInputElement>(null);
  const districtRef = useRef<HTMLInputElement>(null);

  // Only a district id given: find its province and department (SPEC §4: set up after 100 ms).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the district changes
  useEffect(() => {
    if (loc.district_id && (!loc.province_id || !loc.department_id)) {
      const t = setTimeout(async () => {
        try {
          const d = (await call(
            resourceCalls(districtContract).get,
            { params: { id: loc.district_id! } },
            { silent: true },
          )) as Place;
          const pr = (await call(
            resourceCalls(provinceContract).get,
            { params: { id: d.province_id! } },
            { silent: true },
          )) as Place;
          const full = { department_id: pr.department_id ?? null, province_id: pr.id, district_id: d.id };
          setLoc(full);
          if (emitObject) p.onChange(full);
        } catch {
          // unknown district: leave the picker empty
        }
      }, LOCATION_SETUP_DELAY_MS);
      return () => clearTimeout(t);
    }
  }, [loc.district_id, loc.province_id, loc.department_id]);

  const departments = usePlaces('departments');
  const provinces = usePlaces('provinces', ['department_id', loc.department_id]);
  const districts = usePlaces('districts', ['province_id', loc.province_id]);

  const emit = (next: Location) => {
    setLoc(next);
    p.onChange(emitObject ? next : next.district_id);
  };
  const locked = { disabled: field.disabled, readOnly: field.readOnly };

  return (
    <Grid container spacing={2} data-testid={`location-${field.name}`}>
      <Grid size={4}>
        <PlaceSelect
          label="Departamento"
          name={`${field.name}.department_id`}
          options={departments.data ?? []}
          loading={departments.isFetching}
          value={loc.department_id}
          required={field.required}
          {...locked}
          onChange={(id) => {
            emit({ department_id: id, province_id: null, district_id: null });
            if (id) setTimeout(() => provinceRef.current?.focus(), 0);
          }}
        />
      </Grid>
      <Grid size={4}>
        <PlaceSelect
          label="Provincia"
          name={`${field.name}.province_id`}
          options={provinces.data ?? []}
          loading={provinces.isFetching}
          value={loc.province_id}
          required={field.required}
          disabled={field.disabled || !loc.department_id}
          readOnly={field.readOnly}
          inputRef={provinceRef}
          onChange={(id) => {
            emit({ ...loc, province_id: id, district_id: null });
            if (id) setTimeout(() => districtRef.current?.focus(), 0);
          }}
        />
      </Grid>
      <Grid size={4}>
        <PlaceSelect
          label="Distrito"
          name={`${field.name}.district_id`}
          options={districts.data ?? []}
          loading={districts.isFetching}
          value={loc.district_id}
          required={field.required}
          disabled={field.disabled || !loc.province_id}
          readOnly={field.readOnly}
          inputRef={districtRef}
          error={p.error}
          onChange={(id) => emit({ ...loc, district_id: id })}
        />
      </Grid>
    </Grid>
  );
}
