import { cookieValue } from './cookies';

describe('cookieValue', () => {
  test('finds one cookie among several, decoded', () => {
    expect(cookieValue('a=1; baton_gate=12.ab%2Bc; b=2', 'baton_gate')).toBe('12.ab+c');
    expect(cookieValue('baton_gate="quoted"', 'baton_gate')).toBe('quoted');
  });

  test('a missing header, a missing cookie or a name that only ends the same is undefined', () => {
    expect(cookieValue(undefined, 'baton_gate')).toBeUndefined();
    expect(cookieValue('x_baton_gate=1; other=2', 'baton_gate')).toBeUndefined();
    expect(cookieValue('baton_gate', 'baton_gate')).toBeUndefined();
  });

  test('a value that is not valid percent-encoding is returned as it is', () => {
    expect(cookieValue('baton_gate=%E0%A4%A', 'baton_gate')).toBe('%E0%A4%A');
  });
});
