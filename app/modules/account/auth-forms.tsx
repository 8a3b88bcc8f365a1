import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { Form, Link } from 'react-router'
import { useRootData } from '#app/root-data'
import { SignInSchema, SignUpSchema } from './schemas'
import { useTrackOnce } from '#app/modules/analytics/use-track'
import { ConfirmationPanel } from './confirmation-panel'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import { TermsDisclaimer } from './terms-disclaimer'

/**
 * The sign-in and sign-up forms, shared by the pages (/login, /register:
 * plain forms, no JavaScript needed) and the dialog (the same forms through
 * a fetcher, answered by the same route actions).
 */
export type SignInActionData =
	| { intent: 'oauth' | 'password' | 'totp' | null; result: SubmissionResult<string[]> | null; error: string | null }
	| undefined
export type SignUpActionData =
	| {
			result: SubmissionResult<string[]> | null
			sent: { email: string; secondsLeft: number; at: number } | null
			error: string | null
	  }
	| undefined

/** `Form`, or a fetcher's `Form` in the dialog. */
type FormComponent = typeof Form

type Common = {
	lang: string
	redirectTo: string
	FormComponent?: FormComponent
	/** Switch to the other variant in place (the dialog); the pages link instead. */
	onSwitch?: () => void
}

export function SignInMethods({ lang, redirectTo, actionData, FormComponent = Form, onSwitch }: Common & { actionData: SignInActionData }) {
	const { t } = useTranslation()
	const passwordResult = actionData?.intent === 'password' ? actionData.result : null
	const [form, fields] = useForm({
		id: 'sign-in',
		lastResult: passwordResult,
		constraint: getZodConstraint(SignInSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInSchema }),
	})
	const oauthError = actionData?.intent === 'oauth' ? actionData.error : null
	// Only the providers this deployment has configured are offered.
	const providers = useRootData()?.oauthProviders ?? []
	const twitch = providers.includes('twitch')
	const methods = (
		<>
			<FormComponent method="post" action={`/${lang}/login`} {...getFormProps(form)} className="stack">
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<Field
					label={t('auth.email')}
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', maxLength: 100 }}
					errors={fields.email.errors}
				/>
				<Field
					label={t('auth.password')}
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password', maxLength: 100 }}
					errors={fields.password.errors}
				/>
				<ErrorList id={form.errorId} errors={form.errors} />
				<SubmitButton intent="password">{t('auth.sign-in')}</SubmitButton>
				<Link to={`/${lang}/password-reset`}>{t('auth.forgot-password')}</Link>
			</FormComponent>
			{providers.includes('google') ? <OAuthButton lang={lang} provider="google" redirectTo={redirectTo} label={t('auth.continue-with-google')} /> : null}
		</>
	)
	return (
		<>
			{twitch ? <OAuthButton lang={lang} provider="twitch" redirectTo={redirectTo} label={t('auth.continue-with-twitch')} /> : null}
			<ErrorList errors={oauthError ? [oauthError] : null} />
			{/* "Other" only beside Twitch, the first way in; without it the e-mail form is the way in and shows as such. */}
			{twitch ? (
				<details className="other-methods" open={Boolean(passwordResult) || undefined}>
					<summary>{t('auth.other-methods')}</summary>
					{methods}
				</details>
			) : (
				<div className="stack">{methods}</div>
			)}
			<TermsDisclaimer variant="continue" />
			<p>
				{t('auth.no-account')} <SwitchLink to={`/${lang}/register`} onSwitch={onSwitch} label={t('auth.sign-up')} />
			</p>
		</>
	)
}

export function SignUpForm({ lang, redirectTo, actionData, FormComponent = Form, onSwitch }: Common & { actionData: SignUpActionData }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'sign-up',
		lastResult: actionData?.result,
		constraint: getZodConstraint(SignUpSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
	})
	// The address is never sent: only that a sign-up went through.
	useTrackOnce('sign-up', { method: 'password' }, Boolean(actionData?.sent && !actionData.error), String(actionData?.sent?.at ?? ''))
	if (actionData?.sent) {
		return (
			<>
				<ErrorList errors={actionData.error && actionData.error !== 'error-rate-limited' ? [actionData.error] : null} />
				<ConfirmationPanel
					key={actionData.sent.at}
					email={actionData.sent.email}
					secondsLeft={actionData.sent.secondsLeft}
					tooEarly={actionData.error === 'error-rate-limited'}
					action={`/${lang}/register`}
					FormComponent={FormComponent}
				/>
			</>
		)
	}
	return (
		<>
			<FormComponent method="post" action={`/${lang}/register`} {...getFormProps(form)} className="stack">
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<Field
					label={t('auth.email')}
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', maxLength: 100 }}
					errors={fields.email.errors}
				/>
				<Field
					label={t('auth.password')}
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', maxLength: 100 }}
					errors={fields.password.errors}
					hint={t('auth.password-hint')}
				/>
				<ErrorList id={form.errorId} errors={form.errors} />
				<SubmitButton intent="sign-up">{t('auth.sign-up')}</SubmitButton>
				<TermsDisclaimer variant="submit" />
			</FormComponent>
			<p>
				{t('auth.have-account')} <SwitchLink to={`/${lang}/login`} onSwitch={onSwitch} label={t('auth.sign-in')} />
			</p>
		</>
	)
}

function SwitchLink({ to, onSwitch, label }: { to: string; onSwitch?: () => void; label: string }) {
	return (
		<Link
			to={to}
			onClick={
				onSwitch
					? (event) => {
							event.preventDefault()
							onSwitch()
						}
					: undefined
			}
		>
			{label}
		</Link>
	)
}

/** Provider sign-in leaves the site, so it is always a full form post to the login action. */
function OAuthButton({ lang, provider, redirectTo, label }: { lang: string; provider: 'google' | 'twitch'; redirectTo: string; label: string }) {
	return (
		<Form method="post" action={`/${lang}/login`} className="oauth-form" reloadDocument>
			<input type="hidden" name="provider" value={provider} />
			<input type="hidden" name="redirectTo" value={redirectTo} />
			<SubmitButton intent="oauth" className={`button button--${provider}`}>
				{label}
			</SubmitButton>
		</Form>
	)
}
