import { readCookie } from '#app/utils/cookies'

/**
 * The cookie entries of the consent banner (docs/product.md §15.5: id, name,
 * optional description, optional links, optional target cookies, optional
 * script, preselected), grouped necessary or optional. Names and
 * descriptions are messages (`consent.entries.<id>.name` / `.description`),
 * so every entry is translated in the four languages; the rest is here,
 * shared by the server (which reads the consent cookies) and the browser
 * (which shows the settings and adds or removes scripts and cookies).
 * docs/decisions/026-cookie-consent-and-analytics.md explains the choices.
 */

export const CONSENT_GROUPS = ['necessary', 'optional'] as const
export type ConsentGroup = (typeof CONSENT_GROUPS)[number]

/** A cookie an entry sets: an exact name, or every name starting with `prefix`. */
export type TargetCookie = { name: string } | { prefix: string }

export interface CookieEntry {
	id: string
	group: ConsentGroup
	/** Further reading: the third party's privacy policy (labelled "Privacy policy of {provider}"). */
	links?: { url: string; provider: string }[]
	/** Cookies this entry sets on our origin: deleted when the entry is switched off. */
	targetCookies?: TargetCookie[]
	/** A script added to the page while the entry is on, and taken out when it is switched off. */
	script?: { src: string; module?: boolean }
	/** Switched on in the settings before the visitor chooses (optional entries only; never counts as consent). */
	preselected: boolean
}

/** The two consent cookies (docs/product.md §15.5): the consent-given flag and the enabled ids joined by `~`. */
export const CONSENT_COOKIE = 'cookie_consent'
export const CONSENT_IDS_COOKIE = 'cookie_consent_ids'
export const CONSENT_IDS_SEPARATOR = '~'

/** The stream players of a session page, one optional entry per platform. */
export const PLAYER_ENTRY_IDS = ['twitch', 'youtube', 'kick'] as const
export type PlayerEntryId = (typeof PLAYER_ENTRY_IDS)[number]

export const ANALYTICS_ENTRY_ID = 'analytics'

/** What the browser is told about the operator's settings (public env). */
export interface ConsentConfig {
	/** PostHog is configured (POSTHOG_KEY): the analytics entry exists. */
	analytics: boolean
	/** Where the analytics library is served from (a hashed asset of the build); only with `analytics`. */
	analyticsScript?: string
	/** The PostHog project key (public by design: every page that loads PostHog carries it). */
	analyticsKey?: string
	/** Days the two consent cookies are kept (CONSENT_MAX_AGE_DAYS). */
	maxAgeDays: number
	/** The settings cannot be closed until a choice is made (CONSENT_FORCE_MODAL). */
	forceModal: boolean
}

const NECESSARY: CookieEntry[] = [
	{
		id: 'sign-in',
		group: 'necessary',
		targetCookies: [{ prefix: 'better-auth.' }, { prefix: 'sb-' }],
		preselected: true,
	},
	{
		id: 'preferences',
		group: 'necessary',
		targetCookies: [{ name: 'i18n_redirected' }, { name: CONSENT_COOKIE }, { name: CONSENT_IDS_COOKIE }],
		preselected: true,
	},
	{
		id: 'notices',
		group: 'necessary',
		targetCookies: [{ name: 'toast-session' }, { name: 'auth_return_to' }],
		preselected: true,
	},
]

const PLAYERS: CookieEntry[] = [
	{
		id: 'twitch',
		group: 'optional',
		links: [{ url: 'https://www.twitch.tv/p/legal/privacy-notice/', provider: 'Twitch' }],
		preselected: false,
	},
	{
		id: 'youtube',
		group: 'optional',
		links: [{ url: 'https://policies.google.com/privacy', provider: 'Google' }],
		preselected: false,
	},
	{
		id: 'kick',
		group: 'optional',
		links: [{ url: 'https://kick.com/privacy-policy', provider: 'Kick' }],
		preselected: false,
	},
]

/** The entries for this deployment: analytics only when it is configured. */
export function consentEntries(config: Pick<ConsentConfig, 'analytics' | 'analyticsScript'>): CookieEntry[] {
	const analytics: CookieEntry[] = config.analytics
		? [
				{
					id: ANALYTICS_ENTRY_ID,
					group: 'optional',
					links: [{ url: 'https://posthog.com/privacy', provider: 'PostHog' }],
					// PostHog keeps its visitor id in ph_<project key>_posthog.
					targetCookies: [{ prefix: 'ph_' }],
					...(config.analyticsScript ? { script: { src: config.analyticsScript, module: true } } : {}),
					preselected: false,
				},
			]
		: []
	return [...NECESSARY, ...analytics, ...PLAYERS]
}

export type ConsentStatus = 'undecided' | 'accepted' | 'partial' | 'declined'

/** A visitor's choice as the two cookies hold it. */
export interface ConsentState {
	/** The consent-given flag. */
	given: boolean
	/** The enabled optional entries (necessary ones are always on). */
	enabled: string[]
}

export const UNDECIDED: ConsentState = { given: false, enabled: [] }

/** The status of a choice among the optional entries that exist. */
export function consentStatus(state: ConsentState, entries: CookieEntry[]): ConsentStatus {
	if (!state.given) return 'undecided'
	const optional = entries.filter((e) => e.group === 'optional').map((e) => e.id)
	const on = optional.filter((id) => state.enabled.includes(id))
	if (on.length === 0) return 'declined'
	return on.length === optional.length ? 'accepted' : 'partial'
}

/**
 * Read the two cookies (from a Cookie header or `document.cookie`). Unknown
 * ids are dropped; without the flag nothing counts as allowed.
 */
export function parseConsentCookies(cookieHeader: string | null | undefined, entries: CookieEntry[]): ConsentState {
	const values = new Map<string, string>()
	for (const name of [CONSENT_COOKIE, CONSENT_IDS_COOKIE]) {
		// A malformed value counts as absent.
		const value = readCookie(cookieHeader, name)
		if (value !== null) values.set(name, value)
	}
	if (values.get(CONSENT_COOKIE) !== 'true') return UNDECIDED
	const optional = new Set(entries.filter((e) => e.group === 'optional').map((e) => e.id))
	const enabled = (values.get(CONSENT_IDS_COOKIE) ?? '').split(CONSENT_IDS_SEPARATOR).filter((id) => optional.has(id))
	return { given: true, enabled: [...new Set(enabled)] }
}

/** The choice for "accept all", "necessary only" or a selection. */
export function choose(choice: 'all' | 'necessary' | string[], entries: CookieEntry[]): ConsentState {
	const optional = entries.filter((e) => e.group === 'optional').map((e) => e.id)
	if (choice === 'all') return { given: true, enabled: optional }
	if (choice === 'necessary') return { given: true, enabled: [] }
	return { given: true, enabled: optional.filter((id) => choice.includes(id)) }
}

/** The value of the ids cookie: every enabled entry, the necessary ones included, in entry order. */
export function enabledIdsValue(state: ConsentState, entries: CookieEntry[]): string {
	return entries
		.filter((e) => e.group === 'necessary' || state.enabled.includes(e.id))
		.map((e) => e.id)
		.join(CONSENT_IDS_SEPARATOR)
}

/** The two Set-Cookie values for a choice (not HttpOnly: the settings in the browser write them too). */
export function consentCookieHeaders(state: ConsentState, entries: CookieEntry[], maxAgeDays: number, secure: boolean): string[] {
	const attributes = ['Path=/', `Max-Age=${Math.round(maxAgeDays * 86_400)}`, 'SameSite=Lax', ...(secure ? ['Secure'] : [])]
	return [
		[`${CONSENT_COOKIE}=${state.given ? 'true' : 'false'}`, ...attributes].join('; '),
		[`${CONSENT_IDS_COOKIE}=${encodeURIComponent(enabledIdsValue(state, entries))}`, ...attributes].join('; '),
	]
}

export function matchesTarget(cookieName: string, target: TargetCookie): boolean {
	return 'name' in target ? cookieName === target.name : cookieName.startsWith(target.prefix)
}

/**
 * Whether a choice asks anything of the page (page-effects.client.ts): an
 * allowed entry's script to add, or cookies of an entry that is off to
 * delete. Most page loads of a visitor who chose ask nothing, and load
 * nothing for it.
 */
export function choiceTouchesPage(state: ConsentState, entries: CookieEntry[], cookieNames: string[]): boolean {
	return entries.some((entry) =>
		entry.group === 'necessary' || (state.given && state.enabled.includes(entry.id))
			? Boolean(entry.script)
			: Boolean(entry.targetCookies?.some((target) => cookieNames.some((name) => matchesTarget(name, target)))),
	)
}
