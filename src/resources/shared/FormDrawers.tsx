/**
 * Create and edit drawers around a resource's own inputs, for resources whose saving the schema
 * drawers do not cover (tokens, redemption codes). Titles and the "updated" message are
 * `resources.<i18n>.create_title`, `.edit_title` and `.notification.updated`.
 */
import type { ReactNode } from 'react';
import { EditBase, SaveButton, SimpleForm, Toolbar, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { useMatch } from 'react-router-dom';
import { DrawerFrame, useCloseDrawer } from '../schema/drawers';

/**
 * `/<resource>/create`: a form starting from `defaultValues` whose save calls `onSubmit` with the
 * values and a way to close the drawer; the save button is always enabled, so an empty form shows
 * its validation messages.
 */
export function CreateFormDrawer({
  resource,
  i18n,
  defaultValues,
  onSubmit,
  children,
}: {
  resource: string;
  i18n: string;
  defaultValues: Record<string, unknown>;
  onSubmit: (values: Record<string, unknown>, close: () => void) => Promise<void>;
  children: ReactNode;
}) {
  const match = useMatch(`/${resource}/create`);
  const close = useCloseDrawer(resource);
  const translate = useTranslate();
  return (
    <DrawerFrame open={!!match} onClose={close} title={translate(`resources.${i18n}.create_title`)}>
      {match && (
        <SimpleForm
          resource={resource}
          onSubmit={(values: Record<string, unknown>) => onSubmit(values, close)}
          defaultValues={defaultValues}
          toolbar={
            <Toolbar>
              <SaveButton alwaysEnable />
            </Toolbar>
          }
        >
          {children}
        </SimpleForm>
      )}
    </DrawerFrame>
  );
}

/**
 * `/<resource>/edit/{id}`: loads the record and saves what `transform` makes of the form (one
 * pessimistic update), then says so, closes and refreshes the list. Without `onError`,
 * react-admin's own error notification shows.
 */
export function EditFormDrawer({
  resource,
  i18n,
  transform,
  onError,
  children,
}: {
  resource: string;
  i18n: string;
  transform: (data: RaRecord) => Record<string, unknown>;
  onError?: (error: unknown) => void;
  children: ReactNode;
}) {
  const match = useMatch(`/${resource}/edit/:id`);
  const close = useCloseDrawer(resource);
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const id = match?.params.id;
  const updated = () => {
    notify(`resources.${i18n}.notification.updated`, { type: 'success' });
    close();
    refresh();
  };
  return (
    <DrawerFrame open={!!id} onClose={close} title={translate(`resources.${i18n}.edit_title`)}>
      {id && (
        <EditBase
          resource={resource}
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={transform}
          mutationOptions={{ onSuccess: updated, onError }}
        >
          <SimpleForm>{children}</SimpleForm>
        </EditBase>
      )}
    </DrawerFrame>
  );
}
