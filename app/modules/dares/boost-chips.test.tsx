// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { testI18n, Translated } from '#tests/support/components'
import { BoostChips, quickBoosts } from './boost-chips'

/**
 * The one-tap boosts (docs/product.md §6.4, §15.9): which amounts, and that
 * each chip is a submit button of a form of its own that posts the boost
 * intent with its amount, so a tap boosts without JavaScript too. Sent by
 * the page's script, the dares panel's test covers it (dares-panel.test.tsx).
 */

const i18n = await testI18n('de')
afterEach(cleanup)

test('the amounts: +10, +50, +100 and the session’s minimum, each once, smallest first', () => {
	expect(quickBoosts(200)).toEqual([10, 50, 100, 200])
	expect(quickBoosts(50)).toEqual([10, 50, 100])
	expect(quickBoosts(100)).toEqual([10, 50, 100])
	expect(quickBoosts(70)).toEqual([10, 50, 70, 100])
	expect(quickBoosts(100_000)).toEqual([10, 50, 100, 100_000])
})

test('an amount the boost field would refuse is not offered (a minimum off the boost’s step or above its maximum)', () => {
	expect(quickBoosts(55)).toEqual([10, 50, 100])
	expect(quickBoosts(2_000_000)).toEqual([10, 50, 100])
})

function renderChips(pending = false) {
	const sent: FormData[] = []
	const Stub = createRoutesStub([
		{
			path: '/de/twitch/mia',
			Component: () => <BoostChips sessionId="s1" dareId="d1" formKey="fk-0001" minBoost={1000} lang="de" pending={pending} />,
			action: async ({ request }) => {
				sent.push(await request.formData())
				return null
			},
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/de/twitch/mia']} />
		</Translated>,
	)
	return sent
}

test('each chip is a submit button named for its amount, in the page’s language', async () => {
	renderChips()
	const group = await screen.findByRole('group', { name: i18n.t('dares.quick-boost') })
	const chips = Array.from(group.querySelectorAll('button'))
	expect(chips.map((chip) => chip.textContent)).toEqual(['+10', '+50', '+100', '+1.000'])
	expect(chips.map((chip) => [chip.type, chip.name, chip.value])).toEqual([
		['submit', 'amount', '10'],
		['submit', 'amount', '50'],
		['submit', 'amount', '100'],
		['submit', 'amount', '1000'],
	])
	// The visible amount is part of the name (WCAG 2.5.3).
	expect(screen.getByRole('button', { name: i18n.t('dares.quick-boost-amount', { coins: '1.000' }) }).textContent).toBe('+1.000')
})

test('a tap posts the boost: the intent, the dare, the chip’s amount and a key of its own', async () => {
	const sent = renderChips()
	fireEvent.click(await screen.findByRole('button', { name: i18n.t('dares.quick-boost-amount', { coins: '50' }) }))
	await waitFor(() => expect(sent).toHaveLength(1))
	expect(Object.fromEntries(sent[0]!)).toEqual({ sessionId: 's1', dareId: 'd1', intent: 'boost', key: 'boost:fk-0001:d1:quick', amount: '50' })
})

test('while a boost of the dare is sent, the chips wait', async () => {
	renderChips(true)
	const group = await screen.findByRole('group', { name: i18n.t('dares.quick-boost') })
	for (const chip of group.querySelectorAll('button')) {
		expect(chip.disabled).toBe(true)
		expect(chip.getAttribute('aria-busy')).toBe('true')
	}
})

test('the server renders them as plain buttons of a post form (no JavaScript needed)', () => {
	const html = renderToString(
		<Translated i18n={i18n}>
			{(() => {
				const Stub = createRoutesStub([{ path: '/', Component: () => <BoostChips sessionId="s1" dareId="d1" formKey="fk-0001" minBoost={200} lang="de" pending={false} /> }])
				return <Stub />
			})()}
		</Translated>,
	)
	const page = document.createElement('div')
	page.innerHTML = html
	expect(page.querySelector('form')?.getAttribute('method')).toBe('post')
	const chip = page.querySelector('button[value="200"]') as HTMLButtonElement
	expect([chip.type, chip.name, chip.textContent, chip.disabled]).toEqual(['submit', 'amount', '+200', false])
})
