import type { Env } from '#app/env.server'
import { safeRedirectPath } from '#app/utils/redirect'
import {
	choose,
	consentCookieHeaders,
	consentEntries,
	parseConsentCookies,
	type ConsentConfig,
	type ConsentState,
} from './entries'

type ConsentEnv = Pick<Env, 'POSTHOG_KEY' | 'CONSENT_MAX_AGE_DAYS' | 'CONSENT_FORCE_MODAL' | 'APP_URL'>

export function consentConfig(env: ConsentEnv): ConsentConfig {
	return {
		analytics: Boolean(env.POSTHOG_KEY),
		...(env.POSTHOG_KEY ? { analyticsKey: env.POSTHOG_KEY } : {}),
		maxAgeDays: env.CONSENT_MAX_AGE_DAYS, forceModal: env.CONSENT_FORCE_MODAL }
}

/** Which optional entries this request's cookies allow (the server's view: players, analytics relay). */
export function readConsent(request: Request, env: ConsentEnv): ConsentState {
	return parseConsentCookies(request.headers.get('cookie'), consentEntries(consentConfig(env)))
}

/**
 * A choice posted by the banner without JavaScript, or by a prompt such as
 * "allow Twitch and load the player": `choice` is `all`, `necessary` or
 * `custom` (with an `entry` field per enabled optional entry); `allow` adds
 * one entry to the current choice. Returns the two Set-Cookie values, or
 * null for a form that says nothing we understand.
 */
export function consentFromForm(form: FormData, request: Request, env: ConsentEnv): string[] | null {
	const entries = consentEntries(consentConfig(env))
	const choice = form.get('choice')
	const allow = form.get('allow')
	let state: ConsentState
	if (choice === 'all' || choice === 'necessary') state = choose(choice, entries)
	else if (choice === 'custom') state = choose(form.getAll('entry').filter((v): v is string => typeof v === 'string'), entries)
	else if (typeof allow === 'string' && entries.some((e) => e.id === allow && e.group === 'optional')) {
		const current = readConsent(request, env)
		state = choose([...current.enabled, allow], entries)
	} else return null
	return consentCookieHeaders(state, entries, env.CONSENT_MAX_AGE_DAYS, env.APP_URL.startsWith('https:'))
}

/** Back to the page the form was on (same origin only), else home. */
export function consentReturnPath(form: FormData): string {
	return safeRedirectPath(form.get('redirectTo'), '/')
}
