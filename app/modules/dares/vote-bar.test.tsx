// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { testI18n, Translated } from '#tests/support/components'
import { formatCountdown, formatEndTime, secondsUntil } from './countdown'
import type { DareView } from './service.server'
import { VoteBar } from './vote-bar'

/**
 * The vote bar's own part (docs/product.md §15.9): the dare, the time left
 * (ticking with JavaScript, the end time without) and Done / Not done as a
 * plain post of the vote intent. Who sees it and the page's script sending
 * it: dares-panel.test.tsx; on a phone, with and without JavaScript:
 * tests/e2e/phone-viewer.spec.ts.
 */

const i18n = await testI18n('es')
const NOW = Date.parse('2026-11-27T20:15:00Z')

beforeEach(() => {
	vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] })
})
afterEach(() => {
	cleanup()
	vi.useRealTimers()
})

function votingDare(overrides: Partial<DareView> = {}): DareView {
	return {
		id: 'd1',
		description: 'Canta el estribillo al revés con acento pirata durante toda la ronda siguiente',
		reward: 0,
		status: 'voting',
		pot: 300,
		authorId: 'u2',
		authorName: 'lucia',
		boosters: 2,
		yesVotes: 1,
		noVotes: 0,
		votingEndsAt: new Date(NOW + 125_000).toISOString(),
		createdAt: new Date(NOW - 600_000).toISOString(),
		myBoost: 0,
		myVote: null,
		...overrides,
	}
}

function renderBar(dare: DareView) {
	const sent: FormData[] = []
	const Stub = createRoutesStub([
		{
			path: '/es/twitch/mia',
			Component: () => <VoteBar dare={dare} sessionId="s1" lang="es" />,
			action: async ({ request }) => {
				sent.push(await request.formData())
				return null
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/es/twitch/mia']} />
		</Translated>,
	)
	return sent
}

test('the countdown’s pieces', () => {
	expect(formatCountdown(125)).toBe('2:05')
	expect(formatCountdown(0)).toBe('0:00')
	expect(formatCountdown(3600)).toBe('60:00')
	expect(secondsUntil('2026-11-27T20:15:10.200Z', NOW)).toBe(11)
	expect(secondsUntil('2026-11-27T20:14:00Z', NOW)).toBe(0)
	expect(formatEndTime('2026-11-27T20:17:05Z', 'en')).toBe('8:17:05 PM UTC')
})

test('a region with the dare (a link to its card), the time left ticking, and the two votes', async () => {
	renderBar(votingDare())
	const bar = await screen.findByRole('region', { name: i18n.t('dares.vote-bar-label') })
	const link = within(bar).getByRole('link', { name: votingDare().description })
	expect(link.getAttribute('href')).toBe('#dare-d1')
	const timer = within(bar).getByRole('timer')
	expect(timer.textContent).toBe(i18n.t('dares.vote-bar-left', { time: '2:05' }))
	act(() => void vi.advanceTimersByTime(5000))
	expect(timer.textContent).toBe(i18n.t('dares.vote-bar-left', { time: '2:00' }))
	act(() => void vi.advanceTimersByTime(120_000))
	expect(timer.textContent).toBe(i18n.t('dares.vote-ending'))
	expect(within(bar).getByRole('button', { name: i18n.t('dares.vote-yes') }).getAttribute('aria-pressed')).toBe('false')
	expect(within(bar).getByRole('button', { name: i18n.t('dares.vote-no') }).getAttribute('aria-pressed')).toBe('false')
})

test('the viewer’s vote shows pressed', async () => {
	renderBar(votingDare({ myVote: false }))
	const bar = await screen.findByRole('region', { name: i18n.t('dares.vote-bar-label') })
	expect(within(bar).getByRole('button', { name: i18n.t('dares.vote-no') }).getAttribute('aria-pressed')).toBe('true')
	expect(within(bar).getByRole('button', { name: i18n.t('dares.vote-yes') }).getAttribute('aria-pressed')).toBe('false')
})

test('a tap posts the vote intent, as the dare card’s form does', async () => {
	vi.useRealTimers()
	const sent = renderBar(votingDare())
	const bar = await screen.findByRole('region', { name: i18n.t('dares.vote-bar-label') })
	fireEvent.click(within(bar).getByRole('button', { name: i18n.t('dares.vote-no') }))
	await waitFor(() => expect(sent).toHaveLength(1))
	expect(Object.fromEntries(sent[0]!)).toEqual({ sessionId: 's1', dareId: 'd1', intent: 'vote', vote: 'no' })
})

test('without JavaScript (the server’s render) it names the end time, in UTC, instead of a countdown', () => {
	const Stub = createRoutesStub([{ path: '/', Component: () => <VoteBar dare={votingDare()} sessionId="s1" lang="es" /> }])
	const html = renderToString(
		<Translated i18n={i18n}>
			<Stub />
		</Translated>,
	)
	const page = document.createElement('div')
	page.innerHTML = html
	expect(page.querySelector('.vote-bar__time')?.textContent).toBe(i18n.t('dares.vote-bar-ends-at', { time: formatEndTime(votingDare().votingEndsAt!, 'es') }))
	expect(page.querySelector('[role="timer"]')).toBeNull()
	expect(page.querySelector('form')?.getAttribute('method')).toBe('post')
	expect(Array.from(page.querySelectorAll('button')).map((b) => [b.type, b.name, b.value])).toEqual([
		['submit', 'vote', 'yes'],
		['submit', 'vote', 'no'],
	])
})
