export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A plausible e-mail address: something@domain.tld, no spaces. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) && value.length <= 254;
}
