import type { PostHog } from 'posthog-js/dist/module.slim.no-external'
import { ANALYTICS_RELAY_PATH } from './config'
import { expectAnalytics, setAnalyticsSender } from './events'

/**
 * PostHog in the browser, only after the analytics entry is allowed. The
 * library is the entry's script (added by the consent settings); the same
 * module is imported here to configure it. It sends to our relay only,
 * keeps page views (with paths, never query strings or fragments) and our
 * key events, and nothing else: no autocapture, recordings, surveys, flags,
 * heatmaps or exception capture. The slim build must be told what to load
 * and loads nothing by itself.
 */

let instance: PostHog | null = null
/** False once the visitor switched analytics off, even while the library is still loading. */
let wanted = false
let loading: Promise<{ posthog: PostHog }> | null = null

/** Only the path: a query or fragment may carry a redirect, an e-mail or a token. */
function pathOnly(value: unknown): unknown {
	if (typeof value !== 'string' || value === '' || value === '$direct') return value
	try {
		const url = new URL(value, location.origin)
		return url.origin + url.pathname
	} catch {
		return null
	}
}

/** Addresses are cut to their path; `title` goes (a session page's title is a text someone wrote). */
function scrub(properties: Record<string, unknown>): void {
	delete properties.title
	delete properties.$raw_user_agent
	for (const [name, value] of Object.entries(properties)) {
		if (/(url|referrer)$/i.test(name)) properties[name] = pathOnly(value)
	}
}

export async function startAnalytics(libraryUrl: string, key: string): Promise<void> {
	wanted = true
	// The page the visitor allowed analytics on counts as viewed; events wait from now.
	expectAnalytics(true)
	if (instance) {
		// Switched off earlier on this page, now on again.
		if (instance.has_opted_out_capturing()) {
			instance.set_config({ disable_persistence: false })
			instance.opt_in_capturing()
		}
		setAnalyticsSender((event, properties) => instance?.capture(event, properties))
		return
	}
	loading ??= import(/* @vite-ignore */ libraryUrl).catch((error: unknown) => {
		loading = null
		throw error
	})
	const { posthog } = await loading
	// Switched off while it loaded, or started by a call that came first.
	if (!wanted || instance) return
	posthog.init(key, {
		api_host: ANALYTICS_RELAY_PATH,
		ui_host: null,
		persistence: 'cookie',
		cross_subdomain_cookie: false,
		secure_cookie: location.protocol === 'https:',
		person_profiles: 'never',
		// Our own page views (PageViews, on every navigation): the slim build
		// has no history tracking.
		capture_pageview: false,
		capture_pageleave: false,
		autocapture: false,
		rageclick: false,
		capture_dead_clicks: false,
		capture_exceptions: false,
		capture_performance: false,
		disable_session_recording: true,
		disable_surveys: true,
		disable_product_tours: true,
		disable_conversations: true,
		disable_web_experiments: true,
		disable_external_dependency_loading: true,
		advanced_disable_flags: true,
		advanced_disable_toolbar_metrics: true,
		save_referrer: false,
		before_send: (event) => {
			if (!event) return null
			scrub(event.properties)
			if (event.$set) scrub(event.$set)
			if (event.$set_once) scrub(event.$set_once)
			return event
		},
	})
	// An opt-out from an earlier withdrawal is remembered by PostHog; the
	// visitor has allowed analytics again since.
	if (posthog.has_opted_out_capturing()) posthog.opt_in_capturing()
	instance = posthog
	setAnalyticsSender((event, properties) => instance?.capture(event, properties))
}

export function stopAnalytics(): void {
	wanted = false
	expectAnalytics(false)
	setAnalyticsSender(null)
	if (!instance) return
	instance.opt_out_capturing()
	// Keep it from writing its cookie again (the consent settings delete it).
	instance.set_config({ disable_persistence: true })
}
