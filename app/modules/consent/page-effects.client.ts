import { cookieNames } from '#app/utils/cookies'
import { ANALYTICS_ENTRY_ID, matchesTarget, type ConsentConfig, type ConsentState, type CookieEntry } from './entries'

/**
 * What a choice does to the page (docs/product.md §15.5): an enabled entry with a
 * script gets it added once; switching an entry off takes its scripts out of
 * the page and deletes its cookies on our origin. The analytics entry's
 * script is the PostHog library: it starts once loaded and opts out when
 * switched off (app/modules/analytics/posthog.client.ts).
 */
/** Whether this page visit loaded the analytics client (allowed at some point). */
let analyticsLoaded = false

export async function applyConsentToPage(state: ConsentState, entries: CookieEntry[], config: ConsentConfig): Promise<void> {
	for (const entry of entries) {
		const on = entry.group === 'necessary' || (state.given && state.enabled.includes(entry.id))
		if (on) {
			if (entry.script) addScript(entry)
			if (entry.id === ANALYTICS_ENTRY_ID && entry.script && config.analyticsKey) {
				analyticsLoaded = true
				const analytics = await import('#app/modules/analytics/posthog.client')
				await analytics.startAnalytics(entry.script.src, config.analyticsKey)
			}
		} else {
			// Nothing to stop where analytics never started (their client is not even loaded).
			if (entry.id === ANALYTICS_ENTRY_ID && analyticsLoaded) {
				const analytics = await import('#app/modules/analytics/posthog.client')
				analytics.stopAnalytics()
			}
			for (const script of document.querySelectorAll(`script[data-cookie-entry="${CSS.escape(entry.id)}"]`)) script.remove()
			deleteCookies(entry)
		}
	}
}

function addScript(entry: CookieEntry): void {
	if (!entry.script || document.querySelector(`script[data-cookie-entry="${CSS.escape(entry.id)}"]`)) return
	const script = document.createElement('script')
	script.src = entry.script.src
	if (entry.script.module) script.type = 'module'
	script.dataset.cookieEntry = entry.id
	document.head.append(script)
}

/** Every cookie of the entry that this page can see, on every path and domain it may have been set for. */
function deleteCookies(entry: CookieEntry): void {
	if (!entry.targetCookies?.length) return
	const names = cookieNames(document.cookie).filter((name) => name && entry.targetCookies!.some((target) => matchesTarget(name, target)))
	const host = location.hostname
	const domains = ['', host, `.${host}`, ...(host.split('.').length > 2 ? [`.${host.split('.').slice(-2).join('.')}`] : [])]
	for (const name of names) {
		for (const domain of domains) {
			document.cookie = `${name}=; Max-Age=0; Path=/${domain ? `; Domain=${domain}` : ''}`
		}
	}
}
