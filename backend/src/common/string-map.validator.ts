import { registerDecorator, ValidationArguments } from 'class-validator';

export interface StringMapLimits {
  maxKeys: number;
  maxKeyLength: number;
  maxValueLength: number;
}

/** What is wrong with `value` as a map of strings within the limits, or null when nothing is. */
export function stringMapProblem(value: unknown, name: string, l: StringMapLimits): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `${name} must be an object of text values`;
  const entries = Object.entries(value);
  if (entries.length > l.maxKeys) return `${name} can hold at most ${l.maxKeys} keys`;
  for (const [k, v] of entries) {
    if (!k.length || k.length > l.maxKeyLength) return `${name} keys must be 1–${l.maxKeyLength} characters`;
    if (typeof v !== 'string') return `${name}.${k} must be text`;
    if (v.length > l.maxValueLength) return `${name}.${k} must be at most ${l.maxValueLength} characters`;
  }
  return null;
}

/** A flat object of string values: at most `maxKeys` keys of bounded length (integrators' metadata). */
export function IsStringMap(limits: StringMapLimits) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isStringMap',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => stringMapProblem(value, propertyName, limits) === null,
        defaultMessage: (args: ValidationArguments) => stringMapProblem(args.value, propertyName, limits) ?? `${propertyName} is not valid`,
      },
    });
}
