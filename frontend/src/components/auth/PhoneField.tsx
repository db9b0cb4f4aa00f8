import PhoneInput from "react-phone-number-input";
// Bundled SVG flags: the default loads them from a public CDN at run time.
import flags from "react-phone-number-input/flags";
import "react-phone-number-input/style.css";

/**
 * International phone input with every country (react-phone-number-input); the value it
 * hands to the form is E.164 ("+12133734253") or undefined, which is what the API stores.
 */
export function PhoneField({ value, onChange, id }: { value?: string; onChange?: (v: string | undefined) => void; id?: string }) {
  return (
    <PhoneInput
      id={id}
      international
      flags={flags}
      countryCallingCodeEditable={false}
      defaultCountry="US"
      value={value || undefined}
      onChange={(v) => onChange?.(v ?? undefined)}
      className="gs-phone"
      placeholder="Phone number"
    />
  );
}
