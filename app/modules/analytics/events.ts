/**
 * The product's key events and what they may carry: amounts, counts and
 * fixed choices, never a name, an address, an id of a person or a text
 * someone wrote. `track` sends nothing unless analytics are configured and
 * the visitor allowed them; until the library has started, events wait.
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

type Properties = Record<string, string | number | boolean>
type Sender = (event: string, properties: Properties) => void

let sender: Sender | null = null

/**
 * Between the moment the visitor's choice allows analytics and the moment the
 * library has loaded (a second or more on a slow phone), events wait here,
 * with the address they happened on; without this, a dare created right after
 * the page loads was never counted. Only while allowed: a withdrawal drops
 * them, and nothing from before the choice is kept.
 */
let pending: Array<[string, Properties]> | null = null
const PENDING_MAX = 50

function stamped(properties: Properties): Properties {
	return { ...properties, $current_url: location.href, $pathname: location.pathname }
}

/**
 * The consent state says whether analytics may run on this page (called as
 * soon as it is known, before any effect tracks). Allowed and not yet
 * started: the page the visitor is on counts as viewed, and events wait for
 * the library. Not allowed: whatever waits is dropped.
 */
export function expectAnalytics(allowed: boolean): void {
	if (!allowed) {
		pending = null
		return
	}
	if (sender || pending) return
	pending = [['$pageview', stamped({})]]
}

/** Set by the analytics client while capture is allowed (what waited goes first); null otherwise. */
export function setAnalyticsSender(next: Sender | null): void {
	sender = next
	const waiting = pending ?? []
	pending = null
	if (next) for (const [event, properties] of waiting) next(event, properties)
}

function send(event: string, properties: Properties): void {
	if (sender) sender(event, properties)
	else if (pending && pending.length < PENDING_MAX) pending.push([event, stamped(properties)])
}

export function track<E extends AnalyticsEvent>(event: E, properties: AnalyticsEvents[E]): void {
	send(event, properties as unknown as Properties)
}

export function trackKeyEvent(event: KeyEvent): void {
	send(event.name, event.properties as unknown as Properties)
}

/** A page view of the current address (sent on every client navigation, see PageViews). */
export function trackPageView(): void {
	send('$pageview', {})
}
