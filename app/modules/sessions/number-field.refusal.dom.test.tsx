// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterAll, afterEach, expect, test } from 'vitest'
import { testI18n, Translated, releaseLiveAnnouncer } from '#tests/support/components'
import { NumberField } from './number-field'

afterEach(cleanup)
afterAll(releaseLiveAnnouncer)

const limit = { min: 10, max: 100_000, step: 10 }
const i18n = await testI18n('en')

/**
 * Before React Aria has loaded (a slow phone), the plain field refuses as
 * React Aria's would: a boost below the minimum is kept as typed, its reason
 * is the input's validity (so the browser sends nothing) and shows when a
 * send is refused; React Aria's field, arriving just then, goes on showing
 * it. A file of its own: React Aria loads once per page visit (module).
 */
test('the plain field refuses what React Aria’s would, before React Aria is there, and React Aria’s field goes on saying why', async () => {
	const sent: string[] = []
	render(
		<Translated i18n={i18n}>
			<form
				aria-label="boost"
				onSubmit={(event) => {
					event.preventDefault()
					sent.push(String(new FormData(event.currentTarget).get('amount')))
				}}
			>
				<NumberField name="amount" label="Coins to boost" limit={limit} defaultValue={200} locale="en" refusals="boost" />
				<button type="submit">Boost</button>
			</form>
		</Translated>,
	)
	const amount = screen.getByRole('textbox', { name: 'Coins to boost' }) as HTMLInputElement
	expect(amount.getAttribute('aria-roledescription')).toBeNull()
	fireEvent.change(amount, { target: { value: '5' } })
	fireEvent.blur(amount)
	expect(amount.value).toBe('5')
	const reason = i18n.t('number-field.boost-below-min', { min: '10' })
	expect(amount.validationMessage).toBe(reason)
	expect(screen.queryByRole('alert')).toBeNull()
	fireEvent.click(screen.getByRole('button', { name: 'Boost' }))
	expect(sent).toEqual([])
	expect(screen.getByRole('alert').textContent).toBe(reason)
	expect(amount.getAttribute('aria-invalid')).toBe('true')
	expect(amount.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id)
	// Right again: the reason goes at once, and the form is sent.
	fireEvent.change(amount, { target: { value: '50' } })
	expect(screen.queryByRole('alert')).toBeNull()
	expect(amount.validationMessage).toBe('')
	fireEvent.click(screen.getByRole('button', { name: 'Boost' }))
	expect(sent).toEqual(['50'])

	// Refused again, and React Aria takes over right after (the focus the refusal gave loads it).
	fireEvent.change(amount, { target: { value: '5' } })
	fireEvent.click(screen.getByRole('button', { name: 'Boost' }))
	expect(screen.getByRole('alert').textContent).toBe(reason)
	expect(document.activeElement).toBe(amount)
	const aria = await waitFor(
		() => {
			const input = screen.getByRole('textbox', { name: 'Coins to boost' }) as HTMLInputElement
			expect(input.getAttribute('aria-roledescription')).toBeTruthy()
			return input
		},
		{ timeout: 10_000 },
	)
	expect(aria.value).toBe('5')
	expect(screen.getByRole('alert').textContent).toBe(reason)
	expect(aria.validationMessage).toBe(reason)
	expect(sent).toEqual(['50'])
})
