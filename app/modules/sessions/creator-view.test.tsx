// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { createRoutesStub } from 'react-router'
import { afterEach, expect, test, vi } from 'vitest'
import type { DareActionResult } from '#app/modules/dares/actions.server'
import type { DareView } from '#app/modules/dares/service.server'
import { clock, CreatorView, creatorQueue } from './creator-view'
import { testI18n, Translated } from '#tests/support/components'

/**
 * The creator's view of their live session (docs/product.md §5.9, §6.7):
 * what it shows of the dares, and the forms it sends (reusing the dares'
 * intents; more time and cancel are its own).
 */

afterEach(cleanup)

const i18n = await testI18n('en')
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options)

let n = 0
function dare(status: DareView['status'], pot: number, extra: Partial<DareView> = {}): DareView {
	n++
	return {
		id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
		description: `Dare ${n}`,
		reward: 0,
		status,
		pot,
		authorId: null,
		authorName: 'jonas',
		boosters: 1,
		yesVotes: 0,
		noVotes: 0,
		votingEndsAt: null,
		createdAt: new Date(Date.UTC(2026, 10, 27, 12, 0, n)).toISOString(),
		myBoost: 0,
		myVote: null,
		...extra,
	}
}

test('the queue is the open and accepted dares, most coins first, then the oldest; the vote and the held dares apart', () => {
	const older = dare('open', 200)
	const newer = dare('accepted', 200)
	const big = dare('open', 900)
	const vote = dare('voting', 50, { votingEndsAt: new Date(Date.now() + 60_000).toISOString() })
	const held = dare('held', 300)
	const done = dare('completed', 1000)
	const { queue, vote: running, coins, held: waiting } = creatorQueue([done, older, vote, newer, held, big])
	expect(queue.map((d) => d.id)).toEqual([big.id, older.id, newer.id])
	expect(coins).toBe(1300)
	expect(running?.id).toBe(vote.id)
	expect(waiting).toBe(1)
	expect(creatorQueue([done]).vote).toBeNull()
})

test('a countdown reads minutes and seconds', () => {
	expect(clock(0)).toBe('0:00')
	expect(clock(65)).toBe('1:05')
	expect(clock(3600)).toBe('60:00')
})

function renderView(dares: DareView[], answer: DareActionResult = { ok: true, message: 'Done.', dare: null, balance: 0, xid: null }) {
	const sent: FormData[] = []
	const onAnswer = vi.fn()
	const Stub = createRoutesStub([
		{
			path: '/en/session/s',
			Component: () => <CreatorView sessionId="s" dares={dares} formKey="key" lang="en" onAnswer={onAnswer} />,
			action: async ({ request }) => {
				sent.push(await request.formData())
				return answer
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/session/s']} />
		</Translated>,
	)
	return { sent, onAnswer }
}

test('each queued dare has its next step and Reject; the running vote its countdown, tallies, more time and cancel', async () => {
	const open = dare('open', 450)
	const accepted = dare('accepted', 0)
	const vote = dare('voting', 500, { yesVotes: 3, noVotes: 1, votingEndsAt: new Date(Date.now() + 125_000).toISOString() })
	renderView([accepted, vote, open])
	const view = await screen.findByRole('region', { name: t('sessions.creator-view-title') })
	const [first, second] = within(view).getAllByRole('article')
	expect(first).toBe(within(view).getByRole('article', { name: open.description }))
	// Not list items: the dares panel's cards are the page's list of dares.
	expect(within(view).queryAllByRole('listitem')).toEqual([])
	expect(within(first!).getByRole('button', { name: t('dares.accept') })).toBeTruthy()
	expect(within(first!).getByRole('button', { name: t('dares.reject') })).toBeTruthy()
	expect(within(second!).getByRole('button', { name: t('dares.start-voting') })).toBeTruthy()
	// A vote runs: starting another is not the main step.
	expect(within(second!).getByRole('button', { name: t('dares.start-voting') }).className).not.toContain('button--primary')
	expect(within(view).getByText(t('sessions.queue-summary', { count: 2, coins: '450' }))).toBeTruthy()

	const running = within(view).getByRole('region', { name: t('sessions.vote-title') })
	expect(within(running).getByRole('timer').textContent).toMatch(/2:0[45]$/)
	expect(within(running).getByText(vote.description)).toBeTruthy()
	expect(running.querySelector('.creator-view__tally')!.textContent).toBe(`3 ${t('dares.vote-yes')}1 ${t('dares.vote-no')}`)
	const more = within(running).getByRole('group', { name: t('sessions.extend-title') })
	expect(within(more).getAllByRole('button').map((b) => b.textContent)).toEqual([
		t('sessions.extend-by', { seconds: 60 }),
		t('sessions.extend-by', { seconds: 120 }),
		t('sessions.cancel-vote'),
	])
})

test('with nothing running the view says so', async () => {
	renderView([dare('completed', 300)])
	const view = await screen.findByRole('region', { name: t('sessions.creator-view-title') })
	expect(within(view).getByText(t('sessions.vote-none'))).toBeTruthy()
	expect(within(view).getByText(t('sessions.queue-empty'))).toBeTruthy()
	expect(within(view).queryByRole('timer')).toBeNull()
})

test('a held dare waiting for review is counted, with a link to the dares', async () => {
	renderView([dare('held', 0), dare('held', 200)])
	const link = await screen.findByRole('link', { name: t('sessions.queue-held', { count: 2 }) })
	expect(link.getAttribute('href')).toBe('#dares-title')
})

test('more time is sent as the dares’ extend-vote with its seconds, answered with data, and the answer goes to the page', async () => {
	const vote = dare('voting', 500, { votingEndsAt: new Date(Date.now() + 60_000).toISOString() })
	const { sent, onAnswer } = renderView([vote], { ok: true, message: 'More time.', dare: null, balance: 0, xid: null })
	fireEvent.click(await screen.findByRole('button', { name: t('sessions.extend-by', { seconds: 120 }) }))
	await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(expect.objectContaining({ ok: true, message: 'More time.' })))
	expect(Object.fromEntries(sent[0]!)).toEqual({ from: 'creator-view', respond: 'data', sessionId: 's', dareId: vote.id, seconds: '120', intent: 'extend-vote' })

	fireEvent.click(screen.getByRole('button', { name: t('sessions.cancel-vote') }))
	await waitFor(() => expect(sent).toHaveLength(2))
	expect(Object.fromEntries(sent[1]!)).toEqual({ from: 'creator-view', respond: 'data', sessionId: 's', dareId: vote.id, intent: 'cancel-vote' })
})

test('reject carries its key, like the dare card’s', async () => {
	const open = dare('open', 450)
	const { sent } = renderView([open])
	fireEvent.click(await screen.findByRole('button', { name: t('dares.reject') }))
	await waitFor(() => expect(sent).toHaveLength(1))
	expect(Object.fromEntries(sent[0]!)).toMatchObject({ intent: 'reject', dareId: open.id, key: `reject:key:${open.id}`, from: 'creator-view' })
})

test('the answer comes through when its dare has left the queue first (the live update before the answer)', async () => {
	const open = dare('open', 450)
	let release = () => {}
	const answered = new Promise<void>((resolve) => (release = resolve))
	let show: (dares: DareView[]) => void = () => {}
	const onAnswer = vi.fn()
	function Page() {
		const [dares, setDares] = useState([open])
		show = setDares
		return <CreatorView sessionId="s" dares={dares} formKey="key" lang="en" onAnswer={onAnswer} />
	}
	const Stub = createRoutesStub([
		{
			path: '/en/session/s',
			Component: Page,
			action: async () => {
				await answered
				return { ok: true, message: 'Dare accepted.', dare: null, balance: 0, xid: null } satisfies DareActionResult
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/session/s']} />
		</Translated>,
	)
	fireEvent.click(await screen.findByRole('button', { name: t('dares.accept') }))
	act(() => show([]))
	expect(screen.queryByRole('button', { name: t('dares.accept') })).toBeNull()
	release()
	await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(expect.objectContaining({ ok: true, message: 'Dare accepted.' })))
})
