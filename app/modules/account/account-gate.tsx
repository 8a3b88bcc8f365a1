import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form, useFetcher, useLocation } from 'react-router'
import { toast } from '#app/components/toast'
import type { Locale } from '#app/i18n/locales'
import type { AccountGate } from './gate.server'
import { checkUsername } from './username'
import { useHydrated } from '#app/utils/use-hydrated'
import { DeleteAccount, GATE_DELETE_ACCOUNT_ID, openDeleteAccount } from './delete-account'
import { SubmitButton } from '#app/components/forms'

/**
 * The complete-sign-up and terms dialogs (docs/product.md §2.7), forced on every
 * page but the hide-auth-dialogs list. The server renders them open, so they
 * work without JavaScript; with it they become modal, and closing them
 * unfinished explains why they come back.
 */
export function AccountGateDialog({ gate, locale, termsVersion }: { gate: NonNullable<AccountGate>; locale: Locale; termsVersion: string }) {
	const { t } = useTranslation()
	const ref = useRef<HTMLDialogElement>(null)
	const hydrated = useHydrated()
	const location = useLocation()
	const back = location.pathname + location.search

	useEffect(() => {
		const dialog = ref.current
		if (!dialog || !hydrated) return
		if (dialog.open) dialog.close()
		dialog.showModal()
		const reopen = () => {
			if (!dialog.open) dialog.showModal()
		}
		// The dialog steps aside (a modal dialog makes the toast unreachable)
		// for an error toast that offers account deletion, then comes back.
		const stepAside = (message: string) => {
			dialog.close()
			toast.error(message, {
				// Longer than the default 4 s: it carries an action to reach for.
				duration: 10_000,
				action: {
					label: t('account.delete-account'),
					onClick: () => {
						reopen()
						openDeleteAccount(GATE_DELETE_ACCOUNT_ID)
					},
				},
				onDismiss: reopen,
				onAutoClose: reopen,
			})
		}
		const onCancel = (event: Event) => {
			if (gate !== 'complete-profile') {
				event.preventDefault() // the terms stay open: accept or decline
				toast.info(t('account.terms-accept-to-continue'))
				return
			}
			// The username is required: closing it unfinished says so.
			event.preventDefault()
			stepAside(t('account.complete-required'))
		}
		// Declining the terms records nothing: with JavaScript it is answered
		// here (without, the server answers the same, see app/routes/api/auth-consent.ts).
		const onDecline = (event: Event) => {
			const submitter = (event as SubmitEvent).submitter
			if (!(submitter instanceof HTMLButtonElement) || submitter.value !== 'decline') return
			event.preventDefault()
			stepAside(t('account.terms-declined'))
		}
		const termsForm = dialog.querySelector('form[data-terms]')
		termsForm?.addEventListener('submit', onDecline)
		dialog.addEventListener('cancel', onCancel)
		return () => {
			dialog.removeEventListener('cancel', onCancel)
			termsForm?.removeEventListener('submit', onDecline)
		}
	}, [gate, hydrated, t])

	return (
		<dialog ref={ref} open className="gate-dialog" aria-labelledby="gate-title">
			{gate === 'complete-profile' ? (
				<CompleteProfile back={back} />
			) : (
				<>
					<h2 id="gate-title">{t('account.terms-title')}</h2>
					<p>{t('account.terms-description')}</p>
					<p>
						<a href={`/${locale}/terms`} target="_blank" rel="noopener">
							{t('pages.terms.title')}
						</a>
					</p>
					<Form method="post" action="/api/auth/consent" className="actions" data-terms="">
						<input type="hidden" name="type" value="terms_of_service" />
						<input type="hidden" name="version" value={termsVersion} />
						<input type="hidden" name="redirectTo" value={back} />
						<SubmitButton intent="decline" className="button">
							{t('account.terms-decline')}
						</SubmitButton>
						<SubmitButton intent="accept">{t('account.terms-accept')}</SubmitButton>
					</Form>
				</>
			)}
			<DeleteAccount back={back} id={GATE_DELETE_ACCOUNT_ID} />
		</dialog>
	)
}

type Availability = 'idle' | 'checking' | 'available' | 'taken' | 'invalid'

function CompleteProfile({ back }: { back: string }) {
	const { t } = useTranslation()
	const [value, setValue] = useState('')
	const input = useRef<HTMLInputElement>(null)
	const check = useFetcher<{ available: boolean }>()
	// The field is the server's HTML until the page hydrates, and a person (or
	// a test) may type into it before then: left uncontrolled, what they typed
	// stays, and the check starts from it.
	useEffect(() => {
		const field = input.current
		if (!field?.value) return
		field.value = field.value.toLowerCase()
		setValue(field.value)
	}, [])

	// Availability is checked after a 500 ms pause in typing (docs/product.md §7.1).
	useEffect(() => {
		if (!value) return
		const checked = checkUsername(value)
		if (!checked.ok) return
		const timer = setTimeout(() => check.load(`/api/auth/username?username=${encodeURIComponent(checked.username)}`), 500)
		return () => clearTimeout(timer)
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [value])

	const checked = value ? checkUsername(value) : null
	const status: Availability = !checked
		? 'idle'
		: !checked.ok
			? 'invalid'
			: check.state !== 'idle' || !check.data
				? 'checking'
				: check.data.available
					? 'available'
					: 'taken'

	return (
		<Form method="post" action="/api/auth/create" className="stack">
			<h2 id="gate-title">{t('account.complete-title')}</h2>
			<p>{t('account.complete-description')}</p>
			<input type="hidden" name="redirectTo" value={back} />
			<div className="field">
				<label htmlFor="username">{t('account.username')}</label>
				<input
					id="username"
					name="username"
					type="text"
					required
					minLength={1}
					maxLength={100}
					// The character set only: the length has its own message (from the schema, on both sides).
					pattern="[A-Za-z0-9._]+"
					autoComplete="username"
					autoCapitalize="none"
					spellCheck={false}
					ref={input}
					defaultValue=""
					onChange={(e) => {
						const field = e.currentTarget
						const lower = field.value.toLowerCase()
						if (lower !== field.value) {
							const { selectionStart, selectionEnd } = field
							field.value = lower
							field.setSelectionRange(selectionStart, selectionEnd)
						}
						setValue(lower)
					}}
					aria-describedby="username-hint username-status"
				/>
				<p id="username-hint" className="field__hint">
					{t('account.username-hint')}
				</p>
				<p id="username-status" className={`field__status field__status--${status}`} aria-live="polite">
					{status === 'checking'
						? t('account.username-checking')
						: status === 'available'
							? t('account.username-available')
							: status === 'taken'
								? t('account.username-taken')
								: status === 'invalid'
									? t(checked && !checked.ok ? checked.error : 'validation.username-invalid')
									: null}
				</p>
			</div>
			<SubmitButton intent="create">{t('account.complete-submit')}</SubmitButton>
		</Form>
	)
}
