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

/** An event with its properties, as one value. */
export type KeyEvent = { [E in AnalyticsEvent]: { name: E; properties: AnalyticsEvents[E] } }[AnalyticsEvent]

const isCoins = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

/**
 * A dare's key event as it travels with the success toast from the action's
 * redirect to the page that shows it (a cookie, so anything the browser sends
 * back is checked again here): only these shapes, nothing else.
 */
export function keyEventOf(value: unknown): KeyEvent | null {
	if (typeof value !== 'object' || value === null) return null
	const { name, properties: p } = value as { name?: unknown; properties?: Record<string, unknown> }
	if (typeof p !== 'object' || p === null) return null
	if (name === 'dare-created' && isCoins(p.reward) && typeof p.free === 'boolean') return { name, properties: { reward: p.reward, free: p.free } }
	if (name === 'boost' && isCoins(p.amount) && p.amount > 0) return { name, properties: { amount: p.amount } }
	if (name === 'vote' && (p.choice === 'yes' || p.choice === 'no')) return { name, properties: { choice: p.choice } }
	return null
}

type Sender = (event: string, properties: Record<string, string | number | boolean>) => void

let sender: Sender | null = null

/** Set by the analytics client while capture is allowed; null otherwise. */
export function setAnalyticsSender(next: Sender | null): void {
	sender = next
}

export function track<E extends AnalyticsEvent>(event: E, properties: AnalyticsEvents[E]): void {
	sender?.(event, properties as unknown as Record<string, string | number | boolean>)
}

export function trackKeyEvent(event: KeyEvent): void {
	sender?.(event.name, event.properties as unknown as Record<string, string | number | boolean>)
}

/** A page view of the current address (sent on every client navigation, see PageViews). */
export function trackPageView(): void {
	sender?.('$pageview', {})
}
