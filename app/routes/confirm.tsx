import { useTranslation } from 'react-i18next'
import { StaticPage } from '#app/components/static-page'

export default function ConfirmPage() {
	const { t } = useTranslation()
	return <StaticPage title={t('pages.confirm.title')} />
}
