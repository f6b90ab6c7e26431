import { render } from './render';

describe('Widget', () => {
  it('renders <b>bold</b>', () => {
    const el = <b>bold</b>;
    expect(render(el)).toContain('bold');
  });
});
