import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { SubmitButton } from './forms'

/** The id of the account dialog's delete-account disclosure, which toasts point to. */
export const GATE_DELETE_ACCOUNT_ID = 'gate-delete-account'

/** Opens a delete-account disclosure and brings it into view. */
export function openDeleteAccount(id: string) {
	const details = document.getElementById(id)
	if (!(details instanceof HTMLDetailsElement)) return
	details.open = true
	details.scrollIntoView({ block: 'nearest' })
	details.querySelector('summary')?.focus()
}

/**
 * The delete-account confirmation (spec section 2: cancel / delete), a
 * disclosure that works without JavaScript. "Cancel" goes back to `back`.
 */
export function DeleteAccount({ back, id }: { back: string; id?: string }) {
	const { t } = useTranslation()
	return (
		<details className="delete-account" id={id}>
			<summary>{t('account.delete-account')}</summary>
			<Form method="post" action="/api/auth/delete" className="stack">
				<h3>{t('account.delete-title')}</h3>
				<p>{t('account.delete-description')}</p>
				<input type="hidden" name="redirectTo" value={back} />
				<div className="actions">
					<a href={back} className="button">
						{t('account.delete-cancel')}
					</a>
					<SubmitButton intent="delete" className="button button--danger">
						{t('account.delete-confirm')}
					</SubmitButton>
				</div>
			</Form>
		</details>
	)
}
