/** Signup uppercases the first letter of names and company as the user types. */
export const capitalizeFirst = (value: string | undefined) =>
  value ? value.charAt(0).toUpperCase() + value.slice(1) : value;
