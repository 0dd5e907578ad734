import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { countryOptions } from "../accounts/countries.ts";

/** The region a number without a leading "+" is read in, unless the form names another. */
export const defaultPhoneRegion = "CN";

/**
 * A phone number that can receive text messages, in E.164 (`+8613800138000`), or null. A number
 * starting with "+" carries its own country code; otherwise it is read as a number of `region`.
 * Full metadata, so an impossible number ("+86 123 4567 8901") is refused, as are fixed lines.
 */
export function normalizePhone(input: string, region: string = defaultPhoneRegion): string | null {
  const text = input.trim();
  if (text.length === 0 || text.length > 40) return null;
  const country = isSupportedCountry(region) ? (region as CountryCode) : defaultPhoneRegion;
  const parsed = parsePhoneNumberFromString(text, country);
  if (!parsed || !parsed.isValid()) return null;
  const type = parsed.getType();
  if (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") return null;
  return parsed.number;
}

/** The region (ISO code) of a normalized number, when it is one of ours (the account's country). */
export function regionOfPhone(e164: string): string | undefined {
  return parsePhoneNumberFromString(e164)?.country;
}

/** Countries with their calling codes for the phone field, named in the viewer's language, China first. */
export function phoneRegionOptions(locale: string): { code: string; label: string }[] {
  return countryOptions(locale)
    .filter((country) => isSupportedCountry(country.code))
    .map((country) => ({ code: country.code, label: `${country.name} +${getCountryCallingCode(country.code as CountryCode)}` }));
}
