import type { PostHog } from 'posthog-js/dist/module.slim.no-external'
import { ANALYTICS_RELAY_PATH } from './config'
import { setAnalyticsSender } from './events'

/**
 * PostHog in the browser, only after the analytics entry is allowed. The
 * library is the entry's script (added by the consent settings); the same
 * module is imported here to configure it. It sends to our relay only,
 * keeps page views (with paths, never query strings or fragments) and our
 * key events, and nothing else: no autocapture, recordings, surveys, flags,
 * heatmaps or exception capture.
 */

let instance: PostHog | null = null

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

const URL_PROPERTIES = ['$current_url', '$referrer', '$initial_referrer', '$initial_current_url', '$prev_pageview_pathname']

export async function startAnalytics(libraryUrl: string, key: string): Promise<void> {
	if (instance) {
		instance.opt_in_capturing()
		setAnalyticsSender((event, properties) => instance?.capture(event, properties))
		return
	}
	const module: { posthog: PostHog } = await import(/* @vite-ignore */ libraryUrl)
	const posthog = module.posthog
	posthog.init(key, {
		api_host: ANALYTICS_RELAY_PATH,
		ui_host: null,
		persistence: 'cookie',
		cross_subdomain_cookie: false,
		secure_cookie: location.protocol === 'https:',
		person_profiles: 'never',
		capture_pageview: 'history_change',
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
			for (const name of URL_PROPERTIES) {
				if (name in event.properties) event.properties[name] = pathOnly(event.properties[name])
			}
			return event
		},
	})
	instance = posthog
	setAnalyticsSender((event, properties) => instance?.capture(event, properties))
}

export function stopAnalytics(): void {
	setAnalyticsSender(null)
	if (!instance) return
	instance.opt_out_capturing()
}
