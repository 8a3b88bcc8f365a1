// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { createRoutesStub } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import type { DareView } from '#app/modules/dares/service.server'
import { StopConfirm, stopSummary } from './stop-confirm'
import { testI18n, Translated } from '#tests/support/components'

/** Stopping a session asks first and says what it refunds (docs/product.md §5.4): a <details> that works without JavaScript. */

afterEach(cleanup)

const i18n = await testI18n('de')
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options)

const dare = (status: DareView['status'], pot: number) => ({ status, pot }) as DareView

test('what stopping settles: open, accepted and held dares expire with their coins; a running vote goes on', () => {
	expect(stopSummary([dare('open', 450), dare('accepted', 0), dare('held', 200), dare('voting', 500), dare('completed', 300), dare('rejected', 0)])).toEqual({
		count: 3,
		coins: 650,
		voting: true,
	})
	expect(stopSummary([dare('completed', 300)])).toEqual({ count: 0, coins: 0, voting: false })
})

function renderStop(dares: DareView[]) {
	const Stub = createRoutesStub([{ path: '/de/session/s', Component: () => <StopConfirm dares={dares} formKey="k" lang="de" /> }])
	const { container } = render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/de/session/s']} />
		</Translated>,
	)
	return container
}

test('closed, it is one "Stop the session…"; the real button, its numbers and the key are inside', async () => {
	const container = renderStop([dare('open', 1200), dare('accepted', 50), dare('voting', 10)])
	const details = await screen.findByText(t('sessions.stop-ask'))
	expect(details.tagName).toBe('SUMMARY')
	const disclosure = container.querySelector('details')!
	expect(disclosure.open).toBe(false)
	const button = within(disclosure).getByRole('button', { name: t('sessions.stop-confirm') })
	expect(button.getAttribute('value')).toBe('stop')
	expect([...disclosure.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual(['2', '1.250'])
	expect(within(disclosure).getByText(t('sessions.stop-vote-runs'))).toBeTruthy()
	expect(disclosure.querySelector<HTMLInputElement>('input[name="key"]')!.value).toBe('stop:k')
})

test('with nothing open it says there is nothing to refund', async () => {
	const container = renderStop([dare('completed', 300)])
	await screen.findByText(t('sessions.stop-ask'))
	const disclosure = container.querySelector('details')!
	expect(within(disclosure).getByRole('button', { name: t('sessions.stop-confirm-empty') })).toBeTruthy()
	expect(disclosure.textContent).toContain(t('sessions.stop-nothing-open'))
	expect(disclosure.querySelector('dl')).toBeNull()
})
