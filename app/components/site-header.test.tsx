// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { createRoutesStub } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { testI18n, Translated } from '#tests/support/components'
import { SiteHeader, type HeaderAccount } from './site-header'

/**
 * Which of the header's controls each layout shows. The layouts differ by
 * CSS alone (app.css hides `.site-header__wide` up to 640 px and
 * `.site-header__narrow` above), so what a layout shows is what is outside
 * the other's class; the widths themselves are tests/e2e/phone.spec.ts's.
 */
const i18n = await testI18n()
const t = (key: string, values?: Record<string, string>) => i18n.t(key, values)

afterEach(cleanup)

function renderHeader(account: HeaderAccount | null) {
	const Stub = createRoutesStub([{ path: '/en/terms', Component: () => <SiteHeader locale="en" account={account} /> }])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/terms']} />
		</Translated>,
	)
	return screen.getByRole('banner')
}

const hiddenOnPhones = (el: Element) => el.closest('.site-header__wide') !== null
const hiddenOnWide = (el: Element) => el.closest('.site-header__narrow') !== null

test('a signed-in viewer’s balance is one link to the shop, in both layouts', () => {
	const header = renderHeader({ userId: 'u1', email: 'ada@example.com', username: 'ada', balance: 1250 })
	const balance = within(header).getByTestId('wallet-balance')
	expect(within(header).getAllByTestId('wallet-balance')).toHaveLength(1)
	expect(balance.getAttribute('href')).toBe('/en/shop')
	expect(balance.getAttribute('aria-label')).toBe(t('wallet.balance-label', { coins: '1,250' }))
	expect([hiddenOnPhones(balance), hiddenOnWide(balance)]).toEqual([false, false])
	// The account's name and "Sign out" are the wide row's; a phone has them in its menu.
	expect(hiddenOnPhones(within(header).getByRole('link', { name: 'ada' }))).toBe(true)
	expect(hiddenOnWide(header.querySelector('.site-menu')!)).toBe(true)
	expect(within(header).queryByRole('link', { name: t('nav.sign-in') })).toBeNull()
})

test('a visitor: one "Sign in", in both layouts, and no balance', () => {
	const header = renderHeader(null)
	const signIn = within(header).getByRole('link', { name: t('nav.sign-in') })
	expect([hiddenOnPhones(signIn), hiddenOnWide(signIn)]).toEqual([false, false])
	expect(within(header).queryByTestId('wallet-balance')).toBeNull()
})

test('the brand keeps its name as the link’s name when only its mark shows', () => {
	const header = renderHeader(null)
	expect(within(header).getByRole('link', { name: t('app.name') }).getAttribute('href')).toBe('/en')
})

test('a creator’s pages include their earnings, in both layouts; a viewer’s do not', () => {
	const creator = renderHeader({ userId: 'u1', email: 'mia@example.com', username: 'mia', balance: 0, creator: true })
	const links = within(creator).getAllByRole('link', { name: t('nav.earnings') })
	expect(links.map((link) => link.getAttribute('href'))).toEqual(['/en/earnings', '/en/earnings'])
	expect(links.map((link) => [hiddenOnPhones(link), hiddenOnWide(link)])).toEqual([
		[true, false],
		[false, true],
	])
	cleanup()
	const viewer = renderHeader({ userId: 'u2', email: 'ada@example.com', username: 'ada', balance: 0 })
	expect(within(viewer).queryByRole('link', { name: t('nav.earnings') })).toBeNull()
})
