import { afterEach, expect, test, vi } from 'vitest'
import { expectAnalytics, keyEventOf, setAnalyticsSender, trackKeyEvent, trackPageView } from './events'

test('a dare key event keeps only its own properties', () => {
	expect(keyEventOf({ name: 'dare-created', properties: { reward: 0, free: true, description: 'Sing', email: 'a@b.c' } })).toEqual({
		name: 'dare-created',
		properties: { reward: 0, free: true },
	})
	expect(keyEventOf({ name: 'boost', properties: { amount: 200, dareId: 'x' } })).toEqual({ name: 'boost', properties: { amount: 200 } })
	expect(keyEventOf({ name: 'vote', properties: { choice: 'no', userId: 'u' } })).toEqual({ name: 'vote', properties: { choice: 'no' } })
})

test('anything else a cookie could carry is dropped', () => {
	for (const value of [
		null,
		'boost',
		{ name: 'boost' },
		{ name: 'boost', properties: { amount: 0 } },
		{ name: 'boost', properties: { amount: -10 } },
		{ name: 'boost', properties: { amount: 1.5 } },
		{ name: 'boost', properties: { amount: '200' } },
		{ name: 'vote', properties: { choice: 'maybe' } },
		{ name: 'dare-created', properties: { reward: 100 } },
		{ name: 'sign-up', properties: { method: 'password' } },
		{ name: '$identify', properties: { email: 'a@b.c' } },
	])
		expect(keyEventOf(value), JSON.stringify(value)).toBeNull()
})

function at(href: string): void {
	const url = new URL(href)
	vi.stubGlobal('location', { href: url.href, pathname: url.pathname })
}

afterEach(() => {
	setAnalyticsSender(null)
	expectAnalytics(false)
	vi.unstubAllGlobals()
})

test('while the library loads, events wait with the address they happened on, and go first once it has started', () => {
	at('https://dareboost.test/en/twitch/mia_plays')
	expectAnalytics(true)
	trackKeyEvent({ name: 'dare-created', properties: { reward: 0, free: true } })
	at('https://dareboost.test/en/shop')
	trackPageView()
	const sent: Array<[string, Record<string, unknown>]> = []
	setAnalyticsSender((event, properties) => sent.push([event, properties]))
	trackKeyEvent({ name: 'vote', properties: { choice: 'yes' } })
	expect(sent).toEqual([
		['$pageview', { $current_url: 'https://dareboost.test/en/twitch/mia_plays', $pathname: '/en/twitch/mia_plays' }],
		['dare-created', { reward: 0, free: true, $current_url: 'https://dareboost.test/en/twitch/mia_plays', $pathname: '/en/twitch/mia_plays' }],
		['$pageview', { $current_url: 'https://dareboost.test/en/shop', $pathname: '/en/shop' }],
		['vote', { choice: 'yes' }],
	])
})

test('nothing waits before the choice allows analytics, and a withdrawal drops what waited', () => {
	at('https://dareboost.test/en')
	trackKeyEvent({ name: 'boost', properties: { amount: 100 } })
	expectAnalytics(true)
	trackKeyEvent({ name: 'boost', properties: { amount: 200 } })
	expectAnalytics(false)
	const sent: string[] = []
	setAnalyticsSender((event) => sent.push(event))
	expect(sent).toEqual([])
})

test('a page that never starts the library keeps at most 50 waiting events', () => {
	at('https://dareboost.test/en')
	expectAnalytics(true)
	for (let i = 1; i <= 80; i++) trackKeyEvent({ name: 'boost', properties: { amount: i } })
	const sent: string[] = []
	setAnalyticsSender((event) => sent.push(event))
	expect(sent).toHaveLength(50)
})
