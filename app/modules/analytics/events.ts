/**
 * The product's key events and what they may carry: amounts, counts and
 * fixed choices, never a name, an address, an id of a person or a text
 * someone wrote. `track` sends nothing unless analytics are configured,
 * the visitor allowed them and the library has started.
 */
export interface AnalyticsEvents {
	'sign-up': { method: 'password' | 'google' | 'twitch' }
	'first-purchase': { coins: number }
	'dare-created': { reward: number; free: boolean }
	boost: { amount: number }
	vote: { choice: 'yes' | 'no' }
}

export type AnalyticsEvent = keyof AnalyticsEvents

type Sender = (event: string, properties: Record<string, string | number | boolean>) => void

let sender: Sender | null = null

/** Set by the analytics client while capture is allowed; null otherwise. */
export function setAnalyticsSender(next: Sender | null): void {
	sender = next
}

export function track<E extends AnalyticsEvent>(event: E, properties: AnalyticsEvents[E]): void {
	sender?.(event, properties as unknown as Record<string, string | number | boolean>)
}

/** A page view of the current address (sent on every client navigation, see PageViews). */
export function trackPageView(): void {
	sender?.('$pageview', {})
}
