// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { createRoutesStub } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { RecapLine, RecapPanel, type SessionRecap } from './recap'
import { testI18n, Translated } from '#tests/support/components'

/** The end-of-stream recap (docs/product.md §5.8): on the ended session's page, and in one line of the creator's sessions list. */

afterEach(cleanup)

const i18n = await testI18n('es')
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options)

const RECAP: SessionRecap = {
	earned: 12_500,
	completed: 4,
	failed: 1,
	refunded: 2,
	topFans: [
		{ username: 'lucia', coins: 5000 },
		{ username: 'jonas', coins: 1200 },
	],
}

function renderIn(element: React.ReactNode) {
	const Stub = createRoutesStub([{ path: '/es/session/s', Component: () => element }])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/es/session/s']} />
		</Translated>,
	)
}

test('the recap: coins earned, dares done, not done and refunded, the top fans, and what to share', async () => {
	renderIn(<RecapPanel recap={RECAP} title="Noche de retos" url="https://dareboost.example/es/session/s" cardUrl="/es/session/s/card.png" lang="es" />)
	const recap = await screen.findByRole('region', { name: t('sessions.recap-title') })
	const numbers = Object.fromEntries([...recap.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]))
	expect(numbers).toEqual({
		[t('sessions.recap-earned')]: '12.500',
		[t('sessions.recap-completed')]: '4',
		[t('sessions.recap-failed')]: '1',
		[t('sessions.recap-refunded')]: '2',
	})
	const fans = within(recap).getByRole('region', { name: t('sessions.recap-fans') })
	expect(within(fans).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
		`lucia ${t('sessions.recap-fan-coins', { coins: '5000' })}`,
		`jonas ${t('sessions.recap-fan-coins', { coins: '1200' })}`,
	])
	// The thanks names no coins; the link is the session's own page.
	const text = within(recap).getByLabelText(t('sessions.recap-share-title')) as HTMLTextAreaElement
	expect(text.value).toBe(`${t('sessions.recap-share-text', { title: 'Noche de retos' })} https://dareboost.example/es/session/s`)
	expect(text.value).not.toContain('12')
	expect(within(recap).getByRole('link', { name: t('sessions.recap-card') }).getAttribute('href')).toBe('/es/session/s/card.png')
	// After hydration, one button shares (or copies).
	expect(within(recap).getByRole('button', { name: t('sessions.recap-share') })).toBeTruthy()
})

test('without fans kept, the recap says so', async () => {
	renderIn(<RecapPanel recap={{ ...RECAP, topFans: [] }} title="T" url="https://x.example/es/session/s" cardUrl="/c.png" lang="es" />)
	expect(await screen.findByText(t('sessions.recap-no-fans'))).toBeTruthy()
})

test('in the sessions list: one line and a link to the full recap', async () => {
	renderIn(<RecapLine recap={RECAP} lang="es" href="/es/session/s#recap" />)
	const link = await screen.findByRole('link', { name: t('sessions.recap-open') })
	expect(link.getAttribute('href')).toBe('/es/session/s#recap')
	const line = link.parentElement!
	expect(line.textContent).toContain(t('sessions.recap-line', { coins: '12.500', completed: '4', failed: '1', refunded: '2' }))
	expect(line.textContent).toContain(t('sessions.recap-line-fans', { fans: 'lucia (5000), jonas (1200)' }))
})
