import { expect, test } from 'vitest'
import {
	choiceTouchesPage,
	choose,
	consentCookieHeaders,
	consentEntries,
	consentStatus,
	enabledIdsValue,
	matchesTarget,
	parseConsentCookies,
	UNDECIDED,
} from './entries'

const withAnalytics = consentEntries({ analytics: true, analyticsScript: '/assets/posthog.js' })
const withoutAnalytics = consentEntries({ analytics: false })

test('the entries: necessary ones first, analytics only when configured, a player per platform, nothing optional preselected', () => {
	expect(withAnalytics.map((e) => `${e.group}:${e.id}`)).toEqual([
		'necessary:sign-in',
		'necessary:preferences',
		'necessary:notices',
		'optional:analytics',
		'optional:twitch',
		'optional:youtube',
		'optional:kick',
	])
	expect(withoutAnalytics.some((e) => e.id === 'analytics')).toBe(false)
	expect(withAnalytics.filter((e) => e.group === 'optional').every((e) => !e.preselected)).toBe(true)
	expect(withAnalytics.find((e) => e.id === 'analytics')?.script).toEqual({ src: '/assets/posthog.js', module: true })
})

test('the four states: undecided, accepted (all optional), partial (some), declined (necessary only)', () => {
	expect(consentStatus(UNDECIDED, withAnalytics)).toBe('undecided')
	expect(consentStatus(choose('all', withAnalytics), withAnalytics)).toBe('accepted')
	expect(consentStatus(choose(['twitch'], withAnalytics), withAnalytics)).toBe('partial')
	expect(consentStatus(choose('necessary', withAnalytics), withAnalytics)).toBe('declined')
	// A selection of everything is "accepted"; unknown and necessary ids are not optional choices.
	expect(consentStatus(choose(['analytics', 'twitch', 'youtube', 'kick'], withAnalytics), withAnalytics)).toBe('accepted')
	expect(choose(['sign-in', 'nonsense', 'kick'], withAnalytics).enabled).toEqual(['kick'])
})

test('the two cookies: the flag and every enabled id joined by ~, kept for the configured days, Secure on https', () => {
	const state = choose(['kick', 'analytics'], withAnalytics)
	expect(enabledIdsValue(state, withAnalytics)).toBe('sign-in~preferences~notices~analytics~kick')
	const [flag, ids] = consentCookieHeaders(state, withAnalytics, 30, true)
	expect(flag).toBe('cookie_consent=true; Path=/; Max-Age=2592000; SameSite=Lax; Secure')
	expect(ids).toBe('cookie_consent_ids=sign-in~preferences~notices~analytics~kick; Path=/; Max-Age=2592000; SameSite=Lax; Secure')
	expect(consentCookieHeaders(state, withAnalytics, 1, false)[0]).not.toContain('Secure')
})

test('reading the cookies: only with the flag; unknown ids dropped; a removed entry (analytics unconfigured) no longer counts', () => {
	const header = 'a=1; cookie_consent=true; cookie_consent_ids=sign-in~analytics~twitch~evil~twitch; b=2'
	expect(parseConsentCookies(header, withAnalytics)).toEqual({ given: true, enabled: ['analytics', 'twitch'] })
	expect(parseConsentCookies(header, withoutAnalytics)).toEqual({ given: true, enabled: ['twitch'] })
	expect(parseConsentCookies('cookie_consent_ids=analytics~twitch', withAnalytics)).toEqual(UNDECIDED)
	expect(parseConsentCookies('cookie_consent=false; cookie_consent_ids=analytics', withAnalytics)).toEqual(UNDECIDED)
	expect(parseConsentCookies('cookie_consent=true', withAnalytics)).toEqual({ given: true, enabled: [] })
	expect(parseConsentCookies('cookie_consent=%E0%A4%A; cookie_consent_ids=twitch', withAnalytics)).toEqual(UNDECIDED)
	expect(parseConsentCookies(null, withAnalytics)).toEqual(UNDECIDED)
	// What the cookies say round-trips.
	const [flag, ids] = consentCookieHeaders(choose(['youtube'], withAnalytics), withAnalytics, 10, false)
	const header2 = [flag, ids].map((c) => c?.split(';')[0] ?? '').join('; ')
	expect(parseConsentCookies(header2, withAnalytics)).toEqual({ given: true, enabled: ['youtube'] })
})

test('target cookies match by exact name or prefix', () => {
	expect(matchesTarget('ph_phc_key_posthog', { prefix: 'ph_' })).toBe(true)
	expect(matchesTarget('aph_x', { prefix: 'ph_' })).toBe(false)
	expect(matchesTarget('i18n_redirected', { name: 'i18n_redirected' })).toBe(true)
	expect(matchesTarget('i18n_redirected2', { name: 'i18n_redirected' })).toBe(false)
})

test('a choice asks something of the page only for a script to add or cookies of an entry that is off', () => {
	const declined = { given: true, enabled: ['sign-in', 'preferences', 'notices'] }
	const all = { given: true, enabled: withAnalytics.map((e) => e.id) }
	// Necessary only, nothing left behind: nothing to do (the page loads nothing for it).
	expect(choiceTouchesPage(declined, withAnalytics, ['cookie_consent', 'better-auth.session_token'])).toBe(false)
	// Analytics withdrawn on another tab, its cookie still here: it goes.
	expect(choiceTouchesPage(declined, withAnalytics, ['ph_phc_key_posthog'])).toBe(true)
	// Analytics allowed: its script loads.
	expect(choiceTouchesPage(all, withAnalytics, [])).toBe(true)
	// Without analytics configured, players allowed: no script, nothing to delete.
	expect(choiceTouchesPage({ given: true, enabled: withoutAnalytics.map((e) => e.id) }, withoutAnalytics, [])).toBe(false)
	expect(choiceTouchesPage(UNDECIDED, withAnalytics, ['ph_phc_key_posthog'])).toBe(true)
})
