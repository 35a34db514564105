/** DynamoDB keeps up to 38 significant digits... */
export const MAX_SIGNIFICANT_DIGITS = 38;
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
  const match = NUMBER_SYNTAX.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    return { ok: false, reason: `not a number: ${JSON.stringify(text)}` };
  }
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
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
