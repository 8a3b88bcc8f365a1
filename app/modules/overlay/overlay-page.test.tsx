// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { DareView } from '#app/modules/dares/service.server'
import type { SessionSummary } from '#app/modules/sessions/service.server'
import { testI18n, Translated } from '#tests/support/components'
import { ALERT_MS } from './alerts'
import { OVERLAY_PARTS, type OverlayOptions } from './options'
import { OverlayPage, TOP_REREAD_AFTER_MS, TOP_REREAD_EVERY_MS, type OverlayPageProps } from './overlay-page'

/**
 * The overlay's parts, its options, its alerts and when it reads the top
 * boosters again. The live feed is replaced by the loader's data as it
 * comes (what the feed shows after an update or a read is the same view),
 * so each render with new dares stands for a change that reached the page.
 */
const reread = vi.fn()
vi.mock('#app/modules/realtime/use-session-feed', () => ({
	sessionState: () => ({ status: 'active', dareCount: 0, potTotal: 0 }),
	useSessionFeed: (input: { dares: DareView[] }) => ({ view: { session: null, dares: input.dares }, state: 'live', own: () => {}, reread }),
}))

const i18n = await testI18n()
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options)

beforeEach(() => {
	reread.mockReset()
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
	vi.setSystemTime(new Date('2026-11-27T09:00:00.000Z'))
})
afterEach(() => {
	cleanup()
	vi.useRealTimers()
})

const SESSION = { id: '00000000-0000-4000-8000-00000000a001', title: 'Mia live', platform: 'twitch', channel: 'mia_plays', status: 'active' } as SessionSummary
const ALL = Object.fromEntries(OVERLAY_PARTS.map((p) => [p, true])) as OverlayOptions

const dare = (n: number, over: Partial<DareView> = {}): DareView => ({
	id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
	description: `Dare number ${n}`,
	reward: 100,
	status: 'open',
	pot: 100,
	authorId: null,
	authorName: 'nora',
	boosters: 1,
	yesVotes: 0,
	noVotes: 0,
	votingEndsAt: null,
	createdAt: '2026-11-27T08:00:00.000Z',
	myBoost: 0,
	myVote: null,
	...over,
})
const VOTE = dare(9, { status: 'voting', pot: 500, yesVotes: 3, noVotes: 1, votingEndsAt: '2026-11-27T09:01:05.000Z' })

function props(over: Partial<OverlayPageProps> = {}): OverlayPageProps {
	return {
		session: SESSION,
		dares: [VOTE, dare(1, { pot: 300 }), dare(2)],
		covered: 0,
		lang: 'en',
		options: ALL,
		topBoosters: [
			{ username: 'lucia', coins: 650 },
			{ username: 'jonas', coins: 500 },
		],
		join: { label: 'localhost:3000/en/twitch/mia_plays', qr: { size: 29, path: 'M4 4h7v1h-7z' } },
		address: 'localhost:3000/en/twitch/mia_plays',
		...over,
	}
}

const page = (p: OverlayPageProps) => (
	<Translated i18n={i18n}>
		<OverlayPage {...p} />
	</Translated>
)
const alerts = () => screen.getByRole('status', { name: t('overlay-show.alerts-label') })

test('everything on: the vote with its large countdown, the top dares, the top boosters, where to join with its QR code', () => {
	render(page(props()))
	const overlay = screen.getByRole('region', { name: t('pages.overlay.title') })
	expect(within(overlay).getByRole('timer', { name: t('overlay-show.countdown-label') }).textContent).toBe('1:05')
	expect(within(overlay).getByText('Dare number 9')).toBeTruthy()
	const dares = within(overlay).getByRole('list', { name: t('overlay-show.dares-label') })
	expect(within(dares).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['◎ 300Dare number 1', '◎ 100Dare number 2'])
	const boosters = within(overlay).getByRole('list', { name: t('overlay-show.top-title') })
	expect(within(boosters).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['1lucia◎ 650', '2jonas◎ 500'])
	expect(within(overlay).getByText('localhost:3000/en/twitch/mia_plays')).toBeTruthy()
	expect(within(overlay).getByRole('img', { name: t('overlay-show.qr-label') }).querySelector('path')?.getAttribute('d')).toBe('M4 4h7v1h-7z')
	// Nothing announced for what was there at load.
	expect(alerts().textContent).toBe('')
})

test('each part can be turned off; the countdown alone without the vote card, the vote card with its small clock without the countdown', () => {
	const none = Object.fromEntries(OVERLAY_PARTS.map((p) => [p, false])) as OverlayOptions
	const { rerender } = render(page(props({ options: none, topBoosters: null, join: null })))
	const overlay = screen.getByRole('region', { name: t('pages.overlay.title') })
	expect(overlay.textContent).toBe('Mia live')
	expect(screen.queryByRole('status')).toBeNull()

	rerender(page(props({ options: { ...none, countdown: true }, topBoosters: null, join: null })))
	expect(screen.getByRole('timer').textContent).toBe('1:05')
	expect(screen.queryByText('Dare number 9')).toBeNull()

	rerender(page(props({ options: { ...ALL, countdown: false } })))
	expect(screen.queryByRole('timer')).toBeNull()
	expect(screen.getByRole('region').textContent).toContain(`${t('overlay.vote')} · 1:05`)

	// The QR code without the address, and the other way round.
	rerender(page(props({ join: { label: null, qr: { size: 29, path: 'M0 0h1v1h-1z' } } })))
	expect(screen.queryByText('localhost:3000/en/twitch/mia_plays')).toBeNull()
	expect(screen.getByRole('img', { name: t('overlay-show.qr-label') })).toBeTruthy()
})

test('a boost, a new dare and a result: one alert at a time, boosts of one dare added up, no booster named', () => {
	const first = props()
	const { rerender } = render(page(first))
	// Two boosts of dare 1 in a row (two updates), a new dare, and the vote's end.
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 400 }), dare(2)] }))
	expect(alerts().textContent).toContain('+100')
	expect(alerts().textContent).toContain('Dare number 1')
	expect(alerts().textContent).toContain(t('overlay-show.alert-pot', { coins: '◎ 400' }))
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 650 }), dare(2), dare(3, { pot: 50 })] }))
	expect(alerts().textContent).toContain('+350')
	expect(alerts().textContent).not.toContain('nora')
	rerender(page({ ...first, dares: [dare(1, { pot: 650 }), dare(2), dare(3, { pot: 50 }), { ...VOTE, status: 'completed', yesVotes: 4 }] }))

	act(() => vi.advanceTimersByTime(ALERT_MS))
	expect(alerts().textContent).toContain(t('overlay-show.alert-dare'))
	expect(alerts().textContent).toContain('Dare number 3')
	act(() => vi.advanceTimersByTime(ALERT_MS))
	expect(alerts().textContent).toContain(t('overlay-show.alert-completed'))
	expect(alerts().textContent).toContain(t('overlay-show.alert-completed-text', { coins: '◎ 500' }))
	expect(alerts().textContent).toContain(t('dares.tally', { yes: 4, no: 1 }))
	act(() => vi.advanceTimersByTime(ALERT_MS))
	expect(alerts().textContent).toBe('')
})

test('with alerts off nothing is announced', () => {
	const first = props({ options: { ...ALL, alerts: false } })
	const { rerender } = render(page(first))
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 400 }), dare(2)] }))
	expect(screen.queryByRole('status')).toBeNull()
	expect(screen.queryByText('+100')).toBeNull()
})

test('the top boosters are read again a few seconds after coins moved, then at most every 15 seconds; not for the same data, nor when not shown', () => {
	const first = props()
	const { rerender } = render(page(first))
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 400 }), dare(2)] }))
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 500 }), dare(2)] }))
	act(() => vi.advanceTimersByTime(TOP_REREAD_AFTER_MS))
	expect(reread).toHaveBeenCalledTimes(1)
	// The data read back, the same as shown: nothing more.
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 500 }), dare(2)] }))
	act(() => vi.advanceTimersByTime(TOP_REREAD_EVERY_MS))
	expect(reread).toHaveBeenCalledTimes(1)

	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 600 }), dare(2)] }))
	act(() => vi.advanceTimersByTime(TOP_REREAD_AFTER_MS))
	expect(reread).toHaveBeenCalledTimes(2)
	rerender(page({ ...first, dares: [VOTE, dare(1, { pot: 700 }), dare(2)] }))
	act(() => vi.advanceTimersByTime(TOP_REREAD_EVERY_MS - 1))
	expect(reread).toHaveBeenCalledTimes(2)
	act(() => vi.advanceTimersByTime(1))
	expect(reread).toHaveBeenCalledTimes(3)

	cleanup()
	const off = props({ topBoosters: null })
	const again = render(page(off))
	again.rerender(page({ ...off, dares: [VOTE, dare(1, { pot: 900 }), dare(2)] }))
	act(() => vi.advanceTimersByTime(TOP_REREAD_EVERY_MS))
	expect(reread).toHaveBeenCalledTimes(3)
})

test('the server renders no alert, and the empty state, which says where to dare, when nothing runs (also with the join card off)', () => {
	const html = renderToString(page(props({ dares: [dare(4, { status: 'completed' })], topBoosters: [], join: null, options: { ...ALL, join: false, qr: false } })))
	expect(html).toContain(t('overlay.empty', { address: 'localhost:3000/en/twitch/mia_plays' }))
	expect(html).not.toContain(t('overlay-show.top-title'))
	expect(html).not.toContain('overlay__alert ')
})
