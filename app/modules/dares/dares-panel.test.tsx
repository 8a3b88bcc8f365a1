// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createRoutesStub, useLocation } from 'react-router'
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest'
import { AuthDialogProvider } from '#app/modules/account/auth-dialog'
import { GatedActionProvider, type Readiness } from '#app/modules/account/gated-action'
import { testI18n, Translated, releaseLiveAnnouncer } from '#tests/support/components'
import type { DareActionResult } from './actions.server'
import type { ModerationResult } from './moderation.server'
import { DaresPanel, type DareAnswer } from './dares-panel'
import type { DareView } from './service.server'

/**
 * The dares panel's phone-first parts with the page's script (docs/product.md
 * §15.9): the vote bar, for whom and through which path its votes go; a
 * quick boost sent as the boost button sends it (the gate, the fetcher with
 * `respond=data`, a fresh key suffix, the answer handed to the page); and
 * what a settled dare says about its coins. React Router's test stub stands
 * in for the session route's action.
 */

const i18n = await testI18n('en')
// The sign-in dialog's content is loaded when it first opens: loaded here, so a busy test run does not wait on it.
await import('#app/modules/account/auth-dialog-content')
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options)
const NOW = Date.now()

beforeEach(() => {
	// happy-dom's dialog has no top layer; what the gate needs is open/close.
	HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
		this.open = true
	}
})
afterEach(cleanup)
afterAll(releaseLiveAnnouncer)

function dare(id: string, status: DareView['status'], overrides: Partial<DareView> = {}): DareView {
	return {
		id,
		description: `Dare ${id}: ${status}`,
		reward: 0,
		status,
		pot: 300,
		authorId: 'author',
		authorName: 'lucia',
		boosters: 2,
		yesVotes: 1,
		noVotes: 1,
		votingEndsAt: status === 'voting' ? new Date(NOW + 90_000).toISOString() : null,
		createdAt: new Date(NOW - 600_000).toISOString(),
		myBoost: 0,
		myVote: null,
		...overrides,
	}
}

const DARES = [
	dare('d1', 'voting'),
	dare('d2', 'open'),
	dare('d3', 'completed'),
	dare('d4', 'failed'),
	dare('d5', 'rejected'),
	dare('d6', 'expired'),
	dare('d7', 'expired', { pot: 0 }),
]

function renderPanel({
	readiness = 'ready',
	isCreator = false,
	search = '',
	countLoads = false,
}: { readiness?: Readiness; isCreator?: boolean; search?: string; countLoads?: boolean } = {}) {
	const sent: FormData[] = []
	const answers: DareAnswer[] = []
	// countLoads: the route has a loader, as the session page has, and counts its runs (a revalidation reads the page again).
	const loads = { count: 0 }
	const onAnswer = (answer: DareAnswer) => answers.push(answer)
	const Stub = createRoutesStub([
		{
			path: '/en/twitch/mia',
			Component: () => (
				<AuthDialogProvider lang="en">
					<GatedActionProvider readiness={readiness}>
						<DaresPanel
							session={{ id: 's1', status: 'active', minBoost: 200, maxDaresPerUser: 5, maxFreeDaresPerUser: 1 }}
							dares={DARES}
							lang="en"
							isCreator={isCreator}
							signedIn={readiness !== 'sign-in'}
							viewerId={readiness === 'sign-in' ? null : isCreator ? 'creator' : 'viewer'}
							formKey="fk-0001"
							onAnswer={onAnswer}
						/>
						<Address />
					</GatedActionProvider>
				</AuthDialogProvider>
			),
			...(countLoads
				? {
						loader: () => {
							loads.count++
							return null
						},
					}
				: {}),
			action: async ({ request }) => {
				const form = await request.formData()
				sent.push(form)
				if (form.get('intent') === 'report') return { ok: true, message: t('moderation.report-received', { reference: 'ABCD1234' }), tone: 'success' } satisfies ModerationResult
				return { ok: true, message: t('dares.boosted'), dare: null, balance: null, xid: null } satisfies DareActionResult
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={[`/en/twitch/mia${search}`]} />
		</Translated>,
	)
	return { sent, answers, loads }
}

/** The address React Router is at (what a reload, or a sign-in that comes back, would ask for). */
function Address() {
	const { pathname, search } = useLocation()
	return <output data-testid="address">{`${pathname}${search}`}</output>
}

const voteBar = () => screen.findByRole('region', { name: t('dares.vote-bar-label') }, { timeout: 5000 })
const card = (id: string) => document.getElementById(`dare-${id}`)!

test('while a vote runs the bar shows it to a viewer, and to a visitor', async () => {
	renderPanel()
	expect(within(await voteBar()).getByRole('link').textContent).toBe('Dare d1: voting')
	cleanup()
	renderPanel({ readiness: 'sign-in' })
	expect(await voteBar()).toBeTruthy()
})

test('the creator, who cannot vote, gets no bar', async () => {
	renderPanel({ isCreator: true })
	await screen.findByRole('heading', { name: t('dares.title') })
	expect(screen.queryByRole('region', { name: t('dares.vote-bar-label') })).toBeNull()
	expect(document.querySelector('.vote-bar')).toBeNull()
})

test('no vote running, no bar', async () => {
	const Stub = createRoutesStub([
		{
			path: '/',
			Component: () => (
				<GatedActionProvider readiness="ready">
					<DaresPanel
						session={{ id: 's1', status: 'active', minBoost: 200, maxDaresPerUser: 5, maxFreeDaresPerUser: 1 }}
						dares={DARES.filter((d) => d.status !== 'voting')}
						lang="en"
						isCreator={false}
						signedIn
						viewerId="viewer"
						formKey="fk-0001"
					/>
				</GatedActionProvider>
			),
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub />
		</Translated>,
	)
	await screen.findByRole('heading', { name: t('dares.title') })
	expect(document.querySelector('.vote-bar')).toBeNull()
})

test('a visitor’s vote in the bar asks them to sign in first, and sends nothing', async () => {
	const { sent } = renderPanel({ readiness: 'sign-in' })
	fireEvent.click(within(await voteBar()).getByRole('button', { name: t('dares.vote-yes') }))
	expect(await screen.findByRole('dialog', undefined, { timeout: 5000 })).toBeTruthy()
	await new Promise((resolve) => setTimeout(resolve, 50))
	expect(sent).toHaveLength(0)
})

test('a viewer’s vote in the bar goes as the card’s does: answered with data, handed to the page', async () => {
	const { sent, answers } = renderPanel()
	fireEvent.click(within(await voteBar()).getByRole('button', { name: t('dares.vote-no') }))
	await waitFor(() => expect(answers).toHaveLength(1))
	expect(Object.fromEntries(sent[0]!)).toEqual({ sessionId: 's1', dareId: 'd1', intent: 'vote', vote: 'no', respond: 'data' })
	expect(answers[0]!.result).toEqual({ ok: true, message: t('dares.boosted'), dare: null, balance: null, xid: null })
})

test('a quick boost is sent as the boost button’s: the gate, respond=data, its key with a suffix of this sending', async () => {
	const { sent, answers } = renderPanel()
	const chips = within(card('d2')).getByRole('group', { name: t('dares.quick-boost') })
	expect(within(chips).getAllByRole('button').map((chip) => chip.textContent)).toEqual(['+10', '+50', '+100', '+200'])
	fireEvent.click(within(chips).getByRole('button', { name: t('dares.quick-boost-amount', { coins: '50' }) }))
	await waitFor(() => expect(answers).toHaveLength(1))
	const form = Object.fromEntries(sent[0]!)
	expect(form).toMatchObject({ sessionId: 's1', dareId: 'd2', intent: 'boost', amount: '50', respond: 'data' })
	expect(form.key).toMatch(/^boost:fk-0001:d2:quick:[0-9a-f-]{36}$/)
	// The next tap is a boost of its own.
	fireEvent.click(within(chips).getByRole('button', { name: t('dares.quick-boost-amount', { coins: '50' }) }))
	await waitFor(() => expect(answers).toHaveLength(2))
	expect(sent[1]!.get('key')).not.toBe(form.key)
})

test('a visitor’s quick boost asks them to sign in first', async () => {
	const { sent } = renderPanel({ readiness: 'sign-in' })
	fireEvent.click(within(card('d2')).getByRole('button', { name: t('dares.quick-boost-amount', { coins: '10' }) }))
	expect(await screen.findByRole('dialog', undefined, { timeout: 5000 })).toBeTruthy()
	expect(sent).toHaveLength(0)
})

test('the amount field stays for any other amount, beside the chips', async () => {
	renderPanel()
	await voteBar()
	const boost = within(card('d2'))
	expect(boost.getByRole('textbox', { name: t('dares.boost-amount') })).toBeTruthy()
	expect(boost.getByRole('button', { name: t('dares.boost') })).toBeTruthy()
	// Only running dares take boosts.
	expect(within(card('d3')).queryByRole('group', { name: t('dares.quick-boost') })).toBeNull()
})

test('a settled dare says where its coins went: paid out when done, refunded when not', async () => {
	renderPanel()
	await voteBar()
	const pot = (id: string) => card(id).querySelector('.dare__pot')!
	expect(pot('d2').textContent).toBe(`${t('dares.pot-label', { coins: '300' })}◎ 300`)
	expect(pot('d3').textContent).toBe(`${t('dares.paid-out-label', { coins: '300' })}◎ 300 ${t('dares.paid-out')}`)
	for (const id of ['d4', 'd5', 'd6']) {
		expect(pot(id).textContent).toBe(`${t('dares.refunded-label', { coins: '300' })}${t('dares.refunded')}`)
		expect(pot(id).textContent).not.toContain('◎')
	}
	// Nothing was in it, nothing went back.
	expect(pot('d7').textContent).toBe(`${t('dares.pot-label', { coins: '0' })}◎ 0`)
})

test('“Report” is a link to the page with that dare’s form; with JavaScript it opens the form in place, focused, and closed the form is the link again', async () => {
	renderPanel({ readiness: 'sign-in' })
	const link = await within(card('d2')).findByRole('link', { name: t('moderation.report') })
	expect(link.getAttribute('href')).toBe('?report=d2#dare-d2')
	expect(document.querySelectorAll('form.report-form')).toHaveLength(0)
	// A click with a modifier is the browser's (a new tab): nothing opens here.
	fireEvent.click(link, { ctrlKey: true })
	expect(document.querySelectorAll('form.report-form')).toHaveLength(0)
	fireEvent.click(link)
	const reason = await within(card('d2')).findByLabelText(t('moderation.report-reason'))
	expect(document.activeElement).toBe(reason)
	expect(document.querySelectorAll('form.report-form')).toHaveLength(1)
	// Closed by its summary: the link again, with the focus.
	const disclosure = card('d2').querySelector('details')!
	disclosure.open = false
	fireEvent(disclosure, new Event('toggle'))
	const again = await within(card('d2')).findByRole('link', { name: t('moderation.report') })
	expect(document.activeElement).toBe(again)
	expect(document.querySelectorAll('form.report-form')).toHaveLength(0)
})

test('a page asked with ?report= shows that dare’s form open, and only that one; closed, the address drops it', async () => {
	const { loads } = renderPanel({ readiness: 'sign-in', search: '?report=d2&utm_source=chat', countLoads: true })
	await screen.findByRole('heading', { name: t('dares.title') })
	await within(card('d2')).findByLabelText(t('moderation.report-reason'))
	expect(document.querySelectorAll('form.report-form')).toHaveLength(1)
	expect(within(card('d1')).getByRole('link', { name: t('moderation.report') })).toBeTruthy()
	// Not opened by a click: the page does not move the focus.
	expect(document.activeElement).toBe(document.body)
	// Closed: a reload (or a sign-in that comes back to this address) does not open it again; the rest of the address stays.
	const disclosure = card('d2').querySelector('details')!
	disclosure.open = false
	fireEvent(disclosure, new Event('toggle'))
	await within(card('d2')).findByRole('link', { name: t('moderation.report') })
	await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/en/twitch/mia?utm_source=chat'))
	// Nothing on the page changed: its data is not read again.
	expect(loads.count).toBe(1)
})

test('a report form the address opened, sent: the toast’s answer closes it and the address drops ?report=', async () => {
	const { sent } = renderPanel({ search: '?report=d2' })
	const form = card('d2').querySelector('form.report-form')!
	fireEvent.change(await within(card('d2')).findByLabelText(t('moderation.report-reason')), { target: { value: 'spam' } })
	fireEvent.change(within(card('d2')).getByLabelText(t('moderation.report-details')), { target: { value: 'Posted the same dare ten times.' } })
	fireEvent.click(within(card('d2')).getByRole('checkbox', { name: t('moderation.report-good-faith') }))
	fireEvent.click(within(form as HTMLElement).getByRole('button', { name: t('moderation.report-send') }))
	await within(card('d2')).findByRole('link', { name: t('moderation.report') })
	expect(sent.at(-1)?.get('intent')).toBe('report')
	expect(sent.at(-1)?.get('respond')).toBe('data')
	await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('/en/twitch/mia'))
})
