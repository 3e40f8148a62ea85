// Field builders for the resource schemas: every rule carries the Spanish message of SPEC §5
// with the field's label, so the server's validationErrors and the client's form agree.
import { z } from 'zod';
import { messages } from '../messages';

export type Labels = Record<string, string>;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const emptyToNull = (v: unknown) => (v === '' ? null : v);
const zeroToNull = (v: unknown) => (v === 0 || v === '' || v === '0' ? null : v);

/** The message for a missing value or a value of the wrong type. */
export const typeError = (label: string) => (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null || iss.input === ''
    ? messages.required(label)
    : `${label} no es valido`;

const tooLong = (label: string, max: number) => `${label} admite como maximo ${max} caracteres`;

export const field = {
  /** Required text. */
  text: (label: string, max: number) =>
    z
      .string({ error: typeError(label) })
      .trim()
      .min(1, messages.required(label))
      .max(max, tooLong(label, max)),
  /** Optional text; '' is stored as null. */
  optText: (label: string, max: number) =>
    z
      .preprocess(
        emptyToNull,
        z
          .string({ error: typeError(label) })
          .trim()
          .max(max, tooLong(label, max))
          .nullable(),
      )
      .optional(),
  email: (label: string) =>
    z
      .string({ error: typeError(label) })
      .trim()
      .min(1, messages.required(label))
      .max(150, tooLong(label, 150))
      .regex(EMAIL_RE, messages.email),
  optEmail: (label: string) =>
    z
      .preprocess(
        emptyToNull,
        z
          .string({ error: typeError(label) })
          .trim()
          .max(150, tooLong(label, 150))
          .regex(EMAIL_RE, messages.email)
          .nullable(),
      )
      .optional(),
  /** Required reference to another record (an id > 0). */
  ref: (label: string) =>
    z
      .number({ error: typeError(label) })
      .int(`${label} no es valido`)
      .positive(messages.required(label)),
  /** Optional reference; 0 and '' mean none. */
  optRef: (label: string) =>
    z
      .preprocess(
        zeroToNull,
        z
          .number({ error: typeError(label) })
          .int(`${label} no es valido`)
          .positive(`${label} no es valido`)
          .nullable(),
      )
      .optional(),
  int: (label: string, min = 0, max = 1_000_000_000) =>
    z
      .number({ error: typeError(label) })
      .int(`${label} no es valido`)
      .min(min, messages.min(label, min))
      .max(max, messages.max(label, max)),
  optNumber: (label: string, min = -1e12, max = 1e12) =>
    z
      .number({ error: typeError(label) })
      .min(min, messages.min(label, min))
      .max(max, messages.max(label, max))
      .nullable()
      .optional(),
  bool: (label: string) => z.boolean({ error: typeError(label) }).optional(),
  password: (label: string) =>
    z
      .string({ error: typeError(label) })
      .min(8, messages.password)
      .max(200, tooLong(label, 200)),
  oneOf: <T extends string>(label: string, values: readonly [T, ...T[]]) =>
    z.preprocess(emptyToNull, z.enum(values, { error: typeError(label) }).nullable()).optional(),
};

/** The address_ fields of SPEC §3. */
export const addressLabels = {
  address_country_id: 'Pais',
  address_department_id: 'Departamento',
  address_province_id: 'Provincia',
  address_district_id: 'Distrito',
  address_address1: 'Direccion',
  address_address2: 'Direccion 2',
  address_other: 'Referencia',
  address_postcode: 'Codigo postal',
  address_phone: 'Telefono',
  address_phone_mobile: 'Celular',
} as const;

export const addressShape = {
  address_country_id: field.optRef(addressLabels.address_country_id),
  address_department_id: field.optRef(addressLabels.address_department_id),
  address_province_id: field.optRef(addressLabels.address_province_id),
  address_district_id: field.optRef(addressLabels.address_district_id),
  address_address1: field.optText(addressLabels.address_address1, 200),
  address_address2: field.optText(addressLabels.address_address2, 200),
  address_other: field.optText(addressLabels.address_other, 200),
  address_postcode: field.optText(addressLabels.address_postcode, 20),
  address_phone: field.optText(addressLabels.address_phone, 30),
  address_phone_mobile: field.optText(addressLabels.address_phone_mobile, 30),
};

/** Labels every record shares. */
export const commonLabels = {
  id: 'Id',
  active: 'Habilitado',
  created_at: 'Creado',
  updated_at: 'Actualizado',
} as const;

/**
 * What both sides know of a resource: its API path, permission base, title and field labels,
 * and the zod schema of its editable fields (create = schema, update = schema.partial()).
 */
export interface ResourceContract<S extends z.ZodObject = z.ZodObject> {
  path: string;
  permission: string;
  title: string;
  labels: Labels;
  schema: S;
  /** Default page size of its list (SPEC §9). */
  pageSize: number;
}

export function defineContract<S extends z.ZodObject>(c: ResourceContract<S>): ResourceContract<S> {
  return { ...c, labels: { ...commonLabels, ...c.labels } };
}
