// Entity types the screens use, aliased from the schema generated from docs/openapi.json
// (`npm run api-types -w frontend`) so they cannot drift from the API.
import type { components } from "./schema";

export type User = components["schemas"]["UserDto"];
export type Role = User["role"];
export type UserStatus = User["status"];

export type AuthConfig = components["schemas"]["AuthConfigDto"];
export type CaptchaProvider = AuthConfig["captcha"]["provider"];

export function fullName(user: Pick<User, "firstName" | "lastName" | "email"> | null | undefined): string {
  if (!user) return "";
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return name || user.email;
}
