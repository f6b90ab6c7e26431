import { Button } from './Button';

it('renders its label', () => {
  expect(Button({ label: 'ok' })).toBeTruthy();
});
