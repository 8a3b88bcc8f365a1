import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, redirect, useLocation } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { z } from 'zod'
import type { Route } from './+types/settings'
import { DeleteAccount } from '#app/components/delete-account'
import { ErrorList, Field, SubmitButton, translateError } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { servicesContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { LOCALES, switchLocalePath, type Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/auth/require-viewer.server'
import { PasswordSchema, TotpCodeSchema } from '#app/modules/auth/schemas'
import { isOAuthProvider } from '#app/modules/account/rules.server'
import type { OAuthProvider, SignInMethod } from '#app/platform/types'
import { queryAsViewer } from '#app/utils/db.server'

const PasswordFormSchema = z.object({ password: PasswordSchema })

/** Brand names, the same in every language. */
const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: 'Google', twitch: 'Twitch' }

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const viewer = requireViewer(request, context)
	const { accounts } = context.get(servicesContext).platform
	const here = `/${params.lang}/settings`
	if (new URL(request.url).searchParams.has('link')) {
		// Back from connecting a provider (linkProvider below): say how it went, on a clean URL.
		const t = getInstance(context).t
		const result = await accounts.finishLink(request)
		return result.ok
			? redirectWithSuccess(here, t('settings.method-connected', { provider: PROVIDER_NAMES[result.data.provider] }), { headers: result.headers })
			: redirectWithError(here, translateError(t, result.error.code), { headers: result.headers })
	}
	const methods = await accounts.listSignInMethods(request)
	const username = await queryAsViewer(context, async (tx) => {
		const { rows } = await tx.query<{ username: string }>('select username from public.profiles where id = auth.uid()')
		return rows[0]?.username ?? null
	})
	return data(
		{
			email: viewer.email,
			username,
			totpEnabled: viewer.totpEnabled ?? viewer.claims.aal === 'aal2',
			// A failure to list them leaves the section out rather than the page.
			methods: methods.ok ? methods.data.methods : null,
			connectable: methods.ok ? methods.data.connectable : [],
		},
		{ headers: methods.headers },
	)
}

type TotpSetup = { uri: string; secret: string; recoveryCodes: string[] }

export async function action({ request, context, params }: Route.ActionArgs) {
	requireViewer(request, context)
	const { accounts } = context.get(servicesContext).platform
	const t = getInstance(context).t
	const formData = await request.formData()
	const intent = formData.get('intent')
	const here = `/${params.lang}/settings`

	if (intent === 'link' || intent === 'unlink') {
		const provider = formData.get('provider')
		if (!isOAuthProvider(provider)) throw data(null, { status: 400 })
		if (intent === 'link') {
			const result = await accounts.linkProvider(request, { provider, locale: params.lang as Locale })
			if (!result.ok) return redirectWithError(here, translateError(t, result.error.code), { headers: result.headers })
			return redirect(result.data.url, { headers: result.headers })
		}
		const result = await accounts.unlinkProvider(request, { provider })
		if (!result.ok) return redirectWithError(here, translateError(t, result.error.code), { headers: result.headers })
		return redirectWithSuccess(here, t('settings.method-disconnected', { provider: PROVIDER_NAMES[provider] }), { headers: result.headers })
	}

	if (intent === 'totp-enroll' || intent === 'totp-disable') {
		const submission = parseWithZod(formData, { schema: PasswordFormSchema })
		if (submission.status !== 'success') {
			return data({ intent, result: submission.reply({ hideFields: ['password'] }), setup: null }, { status: 400 })
		}
		if (intent === 'totp-disable') {
			const result = await accounts.disableTotp(request, submission.value)
			if (!result.ok) {
				return data(
					{ intent, result: submission.reply({ formErrors: [result.error.code], hideFields: ['password'] }), setup: null },
					{ status: result.error.status, headers: result.headers },
				)
			}
			return redirectWithSuccess(here, t('settings.totp-disabled'), { headers: result.headers })
		}
		const result = await accounts.enrollTotp(request, submission.value)
		if (!result.ok) {
			return data(
				{ intent, result: submission.reply({ formErrors: [result.error.code], hideFields: ['password'] }), setup: null },
				{ status: result.error.status, headers: result.headers },
			)
		}
		return data({ intent, result: null, setup: result.data as TotpSetup | null }, { headers: result.headers })
	}

	if (intent === 'totp-confirm') {
		const submission = parseWithZod(formData, { schema: TotpCodeSchema })
		const setup: TotpSetup = {
			uri: formData.get('uri')?.toString() ?? '',
			secret: formData.get('secret')?.toString() ?? '',
			recoveryCodes: formData.getAll('recoveryCodes').map(String),
		}
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), setup }, { status: 400 })
		const result = await accounts.confirmTotpEnrollment(request, submission.value)
		if (!result.ok) {
			return data(
				{ intent, result: submission.reply({ formErrors: [result.error.code], hideFields: ['code'] }), setup },
				{ status: result.error.status, headers: result.headers },
			)
		}
		return redirectWithSuccess(here, t('settings.totp-enabled'), { headers: result.headers })
	}

	throw data(null, { status: 400 })
}

export default function SettingsPage({ loaderData, actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const location = useLocation()
	const here = `/${params.lang}/settings`
	return (
		<div className="settings">
			<PageTitle title={t('pages.settings.title')} />
			<h1>{t('pages.settings.title')}</h1>

			<section className="card" aria-labelledby="settings-profile">
				<h2 id="settings-profile">{t('settings.profile')}</h2>
				<p>
					{t('settings.signed-in-as')} <strong>{loaderData.email}</strong>
				</p>
				<Form method="post" action="/api/auth/create" className="stack">
					<input type="hidden" name="redirectTo" value={here} />
					<div className="field">
						<label htmlFor="settings-username">{t('account.username')}</label>
						<input
							id="settings-username"
							type="text"
							name="username"
							required
							maxLength={100}
							pattern="[A-Za-z0-9._]{1,30}"
							defaultValue={loaderData.username ?? ''}
							autoCapitalize="none"
							spellCheck={false}
						/>
						<p className="field__hint">{t('account.username-hint')}</p>
					</div>
					<SubmitButton intent="create" className="button">
						{t('settings.save')}
					</SubmitButton>
				</Form>
			</section>

			{loaderData.methods ? <SignInMethods methods={loaderData.methods} connectable={loaderData.connectable} /> : null}

			<section className="card" aria-labelledby="settings-totp">
				<h2 id="settings-totp">{t('settings.totp-title')}</h2>
				<p>{loaderData.totpEnabled ? t('settings.totp-on') : t('settings.totp-off')}</p>
				{actionData?.setup ? (
					<TotpConfirm setup={actionData.setup} lastResult={actionData.intent === 'totp-confirm' ? actionData.result : null} />
				) : (
					<PasswordForm
						intent={loaderData.totpEnabled ? 'totp-disable' : 'totp-enroll'}
						label={loaderData.totpEnabled ? t('settings.totp-disable') : t('settings.totp-enable')}
						lastResult={actionData && actionData.intent !== 'totp-confirm' ? actionData.result : null}
					/>
				)}
			</section>

			<section className="card" aria-labelledby="settings-language">
				<h2 id="settings-language">{t('nav.language')}</h2>
				<ul className="language-list">
					{LOCALES.map((l) => (
						<li key={l.code}>
							<a href={switchLocalePath(location.pathname, l.code)} hrefLang={l.code} lang={l.code} aria-current={l.code === params.lang ? 'true' : undefined}>
								{l.name}
							</a>
						</li>
					))}
				</ul>
			</section>

			<section className="card" aria-labelledby="settings-delete">
				<h2 id="settings-delete">{t('account.delete-account')}</h2>
				<DeleteAccount back={here} />
			</section>
		</div>
	)
}

function SignInMethods({ methods, connectable }: { methods: SignInMethod[]; connectable: OAuthProvider[] }) {
	const { t } = useTranslation()
	return (
		<section className="card" aria-labelledby="settings-methods">
			<h2 id="settings-methods">{t('settings.methods-title')}</h2>
			<ul className="sign-in-methods">
				{methods.map((method) => (
					<li key={method.provider}>
						<span>
							<strong>{method.provider === 'email' ? t('settings.method-email') : PROVIDER_NAMES[method.provider]}</strong>
							{method.detail ? <span className="sign-in-methods__detail"> {method.detail}</span> : null}
						</span>
						{method.provider !== 'email' && methods.length > 1 ? (
							<Form method="post">
								<input type="hidden" name="provider" value={method.provider} />
								<SubmitButton intent="unlink" className="button">
									{t('settings.method-disconnect', { provider: PROVIDER_NAMES[method.provider] })}
								</SubmitButton>
							</Form>
						) : null}
					</li>
				))}
			</ul>
			{methods.length === 1 && methods[0]?.provider !== 'email' ? <p className="field__hint">{t('settings.method-only-one')}</p> : null}
			{connectable.length > 0 ? (
				<div className="actions">
					{connectable.map((provider) => (
						<Form method="post" key={provider}>
							<input type="hidden" name="provider" value={provider} />
							<SubmitButton intent="link" className="button">
								{t('settings.method-connect', { provider: PROVIDER_NAMES[provider] })}
							</SubmitButton>
						</Form>
					))}
				</div>
			) : null}
		</section>
	)
}

function PasswordForm({ intent, label, lastResult }: { intent: string; label: string; lastResult: SubmissionResult<string[]> | null | undefined }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: intent,
		lastResult,
		constraint: getZodConstraint(PasswordFormSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordFormSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="stack">
			<Field
				label={t('settings.confirm-password')}
				inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password', maxLength: 100 }}
				errors={fields.password.errors}
			/>
			<ErrorList id={form.errorId} errors={form.errors} />
			<SubmitButton intent={intent} className="button">
				{label}
			</SubmitButton>
		</Form>
	)
}

function TotpConfirm({ setup, lastResult }: { setup: TotpSetup; lastResult: SubmissionResult<string[]> | null | undefined }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'totp-confirm',
		lastResult,
		constraint: getZodConstraint(TotpCodeSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TotpCodeSchema }),
	})
	return (
		<div className="stack">
			<p>{t('settings.totp-scan')}</p>
			<p>
				<a href={setup.uri}>{t('settings.totp-open-app')}</a>
			</p>
			<p>
				{t('settings.totp-secret')} <code className="secret">{setup.secret}</code>
			</p>
			{setup.recoveryCodes.length > 0 ? (
				<>
					<p>{t('settings.totp-recovery')}</p>
					<ul className="recovery-codes">
						{setup.recoveryCodes.map((code) => (
							<li key={code}>
								<code>{code}</code>
							</li>
						))}
					</ul>
				</>
			) : null}
			<Form method="post" {...getFormProps(form)} className="stack">
				<input type="hidden" name="uri" value={setup.uri} />
				<input type="hidden" name="secret" value={setup.secret} />
				{setup.recoveryCodes.map((code) => (
					<input key={code} type="hidden" name="recoveryCodes" value={code} />
				))}
				<Field
					label={t('auth.totp-code')}
					inputProps={{ ...getInputProps(fields.code, { type: 'text' }), autoComplete: 'one-time-code', inputMode: 'numeric' }}
					errors={fields.code.errors}
				/>
				<ErrorList id={form.errorId} errors={form.errors} />
				<SubmitButton intent="totp-confirm">{t('settings.totp-confirm')}</SubmitButton>
			</Form>
		</div>
	)
}
