import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../testing/render';
import { SelectField } from './fields';

interface Values {
  role: string;
}

function Form({ children, role }: { children: ReactNode; role: string }) {
  const form = useForm<Values>({ defaultValues: { role } });
  return <FormProvider {...form}>{children}</FormProvider>;
}

const OPTIONS = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

const choices = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('SelectField', () => {
  it('offers an empty choice, named by its placeholder', () => {
    renderView(
      <Form role="">
        <SelectField<Values> name="role" label="Role" placeholder="Server default" options={OPTIONS} />
      </Form>,
    );
    expect(choices()).toEqual(['Server default', 'Member', 'Admin']);
  });

  it('offers only its options when the value must be one of them', () => {
    renderView(
      <Form role="admin">
        <SelectField<Values> name="role" label="Role" options={OPTIONS} oneOf />
      </Form>,
    );
    expect(choices()).toEqual(['Member', 'Admin']);
    expect(screen.getByRole('combobox', { name: 'Role' })).toHaveValue('admin');
  });

  it('still shows a stored value the list does not know', () => {
    renderView(
      <Form role="auditor">
        <SelectField<Values> name="role" label="Role" options={OPTIONS} oneOf />
      </Form>,
    );
    expect(choices()).toEqual(['Member', 'Admin', 'auditor']);
  });
});
