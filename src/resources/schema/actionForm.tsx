/**
 * The drawer of an action form (a tag's shared fields, a tag for the selected rows): the same
 * frame, inputs and validation as the create and edit drawers, over a subject instead of a record.
 */
import { useMemo, useRef } from 'react';
import { SaveButton, SimpleForm, Toolbar, useNotify, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import { DrawerFrame } from './drawers';
import { SchemaInput } from './inputs';
import type { ActionForm, FormValues } from './types';

function ActionFormBody<S>({
  resource,
  form,
  subject,
  onDone,
}: {
  resource: string;
  form: ActionForm<S>;
  subject: S;
  onDone: () => void;
}) {
  const notify = useNotify();
  const gateway = useGateway();
  const initial = useMemo(() => form.initial(subject), [form, subject]);
  // Save stays enabled (an untouched form shows its messages), so a second click must not send twice.
  const busy = useRef(false);
  const validate = form.validate;
  const submit = async (values: FormValues) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const result = await form.submit(values, subject, initial, gateway);
      notify(result.message, { type: result.done ? 'success' : 'info', messageArgs: result.args });
      if (result.done) onDone();
    } catch (err: unknown) {
      notify(err instanceof Error ? err.message : 'app.error.request_failed', { type: 'error' });
    } finally {
      busy.current = false;
    }
  };
  return (
    <SimpleForm
      resource={resource}
      record={initial}
      validate={validate ? (values) => validate(values) : undefined}
      onSubmit={submit}
      // The message shows under the field; a toast on top would queue before the save's own notice.
      disableInvalidFormNotification
      toolbar={
        <Toolbar>
          <SaveButton alwaysEnable label={form.submitLabel} />
        </Toolbar>
      }
    >
      {form.fields.map((field) => (
        <SchemaInput
          key={field.source}
          field={field}
          source={field.source}
          resource={resource}
          mode="edit"
          readOnly={field.showInEdit === 'readonly'}
        />
      ))}
    </SimpleForm>
  );
}

/**
 * An action form in the side drawer while `subject` is set; `onDone` runs after a save that
 * did something (close, reload, clear a selection).
 */
export function ActionFormDrawer<S>({
  resource,
  form,
  subject,
  onClose,
  onDone,
}: {
  resource: string;
  form: ActionForm<S>;
  subject: S | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const translate = useTranslate();
  const title = subject === null ? '' : translate(form.title, form.titleArgs?.(subject));
  return (
    <DrawerFrame open={subject !== null} onClose={onClose} title={title}>
      {subject !== null && <ActionFormBody resource={resource} form={form} subject={subject} onDone={onDone} />}
    </DrawerFrame>
  );
}
