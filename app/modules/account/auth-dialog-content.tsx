import { useEffect, useMemo, useRef } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { useFetcher, useLocation, type Form } from 'react-router'
import { SignInMethods, SignUpForm, type SignInActionData, type SignUpActionData } from './auth-forms'

/** Which of the two forms the dialog shows. */
export type Variant = 'sign-in' | 'sign-up'

/**
 * The dialog itself, loaded when it first opens (auth-dialog.tsx): its forms
 * and their schemas are not part of any page's first load.
 */
export default function AuthDialog({
	lang,
	variant,
	onSwitch,
	onClose,
}: {
	lang: string
	variant: Variant
	onSwitch: (v: Variant) => void
	onClose: () => void
}) {
	const { t } = useTranslation()
	const ref = useRef<HTMLDialogElement>(null)
	const location = useLocation()
	const signIn = useFetcher<SignInActionData>({ key: 'auth-dialog-sign-in' })
	const signUp = useFetcher<SignUpActionData>({ key: 'auth-dialog-sign-up' })
	const redirectTo = location.pathname + location.search

	useEffect(() => {
		const dialog = ref.current
		if (!dialog) return
		if (!dialog.open) dialog.showModal()
		dialog.addEventListener('close', onClose)
		return () => dialog.removeEventListener('close', onClose)
	}, [onClose])

	const forms = useMemo(
		() => ({
			signIn: signIn.Form as unknown as typeof Form,
			signUp: signUp.Form as unknown as typeof Form,
		}),
		[signIn.Form, signUp.Form],
	)
	const title = variant === 'sign-in' ? t('pages.login.title') : t('pages.register.title')
	return (
		<dialog ref={ref} className="gate-dialog auth-dialog" aria-labelledby="auth-dialog-title">
			<div className="auth-dialog__header">
				<h2 id="auth-dialog-title">{title}</h2>
				<button type="button" className="button button--ghost dialog-close" onClick={() => ref.current?.close()} aria-label={t('auth.close')}>
					×
				</button>
			</div>
			<div className="stack">
				{variant === 'sign-in' ? (
					<SignInMethods lang={lang} redirectTo={redirectTo} actionData={signIn.data} FormComponent={forms.signIn} onSwitch={() => onSwitch('sign-up')} />
				) : (
					<SignUpForm lang={lang} redirectTo={redirectTo} actionData={signUp.data} FormComponent={forms.signUp} onSwitch={() => onSwitch('sign-in')} />
				)}
			</div>
		</dialog>
	)
}
