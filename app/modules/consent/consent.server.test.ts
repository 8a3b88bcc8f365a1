import { expect, test } from 'vitest'
import { parseEnv } from '#app/env.server'
import { consentConfig, consentFromForm, consentReturnPath, readConsent } from './consent.server'

const env = parseEnv({ POSTHOG_KEY: 'phc_unit_test_key', CONSENT_MAX_AGE_DAYS: '90' })

function form(fields: Array<[string, string]>): FormData {
	const data = new FormData()
	for (const [k, v] of fields) data.append(k, v)
	return data
}

const request = (cookie = '') => new Request('http://localhost:3000/consent', { method: 'POST', headers: { cookie } })

test('the config the browser gets: analytics and its public key only with POSTHOG_KEY, the period, the forced modal', () => {
	expect(consentConfig(env)).toEqual({ analytics: true, analyticsKey: 'phc_unit_test_key', maxAgeDays: 90, forceModal: false })
	expect(consentConfig(parseEnv({ CONSENT_FORCE_MODAL: 'yes' }))).toEqual({ analytics: false, maxAgeDays: 182, forceModal: true })
})

test('the banner without JavaScript: accept all, necessary only and a selection set the two cookies', () => {
	expect(consentFromForm(form([['choice', 'all']]), request(), env)?.[1]).toMatch(
		/^cookie_consent_ids=sign-in~preferences~notices~analytics~twitch~youtube~kick; Path=\/; Max-Age=7776000;/,
	)
	expect(consentFromForm(form([['choice', 'necessary']]), request(), env)?.[1]).toMatch(/^cookie_consent_ids=sign-in~preferences~notices;/)
	const custom = consentFromForm(
		form([
			['choice', 'custom'],
			['entry', 'kick'],
			['entry', 'sign-in'],
			['entry', '<script>'],
		]),
		request(),
		env,
	)
	expect(custom?.[0]).toMatch(/^cookie_consent=true;/)
	expect(custom?.[1]).toMatch(/^cookie_consent_ids=sign-in~preferences~notices~kick;/)
})

test("a player's prompt adds its one entry to the current choice; anything else is refused", () => {
	const current = 'cookie_consent=true; cookie_consent_ids=sign-in~preferences~notices~analytics'
	expect(consentFromForm(form([['allow', 'twitch']]), request(current), env)?.[1]).toMatch(
		/^cookie_consent_ids=sign-in~preferences~notices~analytics~twitch;/,
	)
	expect(consentFromForm(form([['allow', 'sign-in']]), request(current), env)).toBeNull()
	expect(consentFromForm(form([['allow', 'nonsense']]), request(current), env)).toBeNull()
	expect(consentFromForm(form([['choice', 'everything']]), request(current), env)).toBeNull()
	expect(consentFromForm(form([]), request(current), env)).toBeNull()
})

test('the server reads the choice from the request; the way back stays on this site', () => {
	expect(readConsent(request('cookie_consent=true; cookie_consent_ids=kick'), env)).toEqual({ given: true, enabled: ['kick'] })
	expect(consentReturnPath(form([['redirectTo', '/de/twitch/mia_plays?x=1']]))).toBe('/de/twitch/mia_plays?x=1')
	expect(consentReturnPath(form([['redirectTo', '//evil.example']]))).toBe('/')
	expect(consentReturnPath(form([['redirectTo', 'https://evil.example/']]))).toBe('/')
	expect(consentReturnPath(form([]))).toBe('/')
})
