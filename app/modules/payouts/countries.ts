/**
 * Which creators' countries the platform can pay out to (docs/decisions/052-stripe-connect-payouts.md).
 *
 * Stripe's self-serve cross-border payouts: a platform in the United States,
 * the United Kingdom, the EEA, Canada or Switzerland can transfer to connected
 * accounts in any of those same places. A platform elsewhere pays only
 * accounts in its own country. Anything beyond that (Global Payouts, Stripe's
 * sales-approved extensions) is not handled here.
 *
 * Shared by the server (the refusal before an account is made) and the
 * earnings page (the country list), so it has no server-only imports.
 */

/** The European Economic Area: the EU's 27 and Iceland, Liechtenstein, Norway. */
export const EEA_COUNTRIES: readonly string[] = [
	'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
	'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO',
]

/** The region inside which Stripe pays across borders without a sales agreement. */
export const CROSS_BORDER_REGION: readonly string[] = [...EEA_COUNTRIES, 'GB', 'CH', 'US', 'CA']

/** Every ISO 3166-1 alpha-2 code (assigned), for checking what a form sent. */
export const ISO_COUNTRIES: readonly string[] = (
	'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
	'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
	'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
	'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
	'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
	'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
	'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ')

/** A form's country as an upper-case code, or null when it is not one. */
export function normalizeCountry(value: unknown): string | null {
	if (typeof value !== 'string') return null
	const code = value.trim().toUpperCase()
	return ISO_COUNTRIES.includes(code) ? code : null
}

/** The creators' countries a platform in `platformCountry` can pay, sorted. */
export function payoutCountries(platformCountry: string): string[] {
	const platform = platformCountry.toUpperCase()
	if (CROSS_BORDER_REGION.includes(platform)) return [...CROSS_BORDER_REGION].sort()
	return [platform]
}

/** Whether a platform in `platformCountry` can pay a creator whose payout account is in `country`. */
export function canPayTo(platformCountry: string, country: string): boolean {
	return payoutCountries(platformCountry).includes(country.toUpperCase())
}
