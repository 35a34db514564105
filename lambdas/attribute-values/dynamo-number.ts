/** DynamoDB keeps up to 38 significant digits... */
const MAX_SIGNIFICANT_DIGITS = 38;
/** ...for magnitudes from 1E-130 up to 9.99...E+125: these bound the exponent of the leading digit. */
const MIN_EXPONENT = -130;
const MAX_EXPONENT = 125;
/** Plain decimal or scientific notation; no spaces, no hex, no NaN/Infinity, no thousands separators. */
const NUMBER_SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export type NumberCheck =
  { readonly ok: true; readonly canonical: string } | { readonly ok: false; readonly reason: string };

/**
 * Checks that `text` is a number DynamoDB stores exactly, without changing it. Returns a canonical form
 * (`-123e-2` for "-1.230") so that keys equal as numbers compare equal as strings.
 */
export function checkDynamoNumber(text: string): NumberCheck {
  if (plainIntegerDigits(text) > 0) return { ok: true, canonical: plainIntegerCanonical(text) };
  const match = NUMBER_SYNTAX.exec(text);
  // The fraction and exponent groups are optional: undefined when absent, whatever the match's type says.
  const [, sign, whole, fraction = '', exponentText = '0'] = match ?? [];
  if (!match || (whole === '' && fraction === ''))
    return { ok: false, reason: `not a number: ${JSON.stringify(text)}` };
  const digits = (whole + fraction).replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return { ok: true, canonical: '0' };
  if (significant.length > MAX_SIGNIFICANT_DIGITS) {
    return {
      ok: false,
      reason: `${JSON.stringify(text)} has ${significant.length} significant digits; DynamoDB keeps 38`,
    };
  }
  // The number is 0.<digits> x 10^(whole.length - leading zeros + exponent); the leading digit's exponent is one less.
  const leadingZeros = (whole + fraction).length - digits.length;
  const leadExponent = whole.length - leadingZeros + Number(exponentText) - 1;
  if (leadExponent < MIN_EXPONENT || leadExponent > MAX_EXPONENT) {
    return { ok: false, reason: `${JSON.stringify(text)} is outside DynamoDB's number range (1E-130 to 9.99E+125)` };
  }
  const canonicalExponent = leadExponent - (significant.length - 1);
  return { ok: true, canonical: `${sign === '-' ? '-' : ''}${significant}e${canonicalExponent}` };
}

/**
 * The digit count of an integer DynamoDB stores as written (optional minus, no leading zero, 1 to 38
 * digits), else 0: such a number needs no other check, and it is most numbers in most files.
 */
export function plainIntegerDigits(text: string): number {
  const start = text.charCodeAt(0) === 45 ? 1 : 0; // '-'
  const digits = text.length - start;
  if (digits < 1 || digits > MAX_SIGNIFICANT_DIGITS) return 0;
  const first = text.charCodeAt(start);
  if (first < 49 || first > 57) return 0; // 1-9
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return 0;
  }
  return digits;
}

/** checkDynamoNumber's canonical form of a plain integer: its digits without trailing zeros, e<their count>. */
function plainIntegerCanonical(text: string): string {
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--; // '0'; the first digit is not one
  return `${text.slice(0, end)}e${text.length - end}`;
}
