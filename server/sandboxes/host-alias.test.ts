import { describe, expect, it } from 'vitest';
import { reachableFromSandbox } from './host-alias';

describe('a URL as a container reaches it', () => {
  it('names the host instead of its loopback', () => {
    expect(reachableFromSandbox('http://localhost:11434/v1')).toBe('http://host.docker.internal:11434/v1');
    expect(reachableFromSandbox('http://127.0.0.1:8000')).toBe('http://host.docker.internal:8000');
    expect(reachableFromSandbox('https://[::1]/api/')).toBe('https://host.docker.internal/api/');
    expect(reachableFromSandbox('http://LOCALHOST:1/v1?x=1')).toBe('http://host.docker.internal:1/v1?x=1');
  });

  it('leaves other hosts and what is no URL as they are', () => {
    expect(reachableFromSandbox('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(reachableFromSandbox('http://127.0.0.2:8000')).toBe('http://127.0.0.2:8000');
    expect(reachableFromSandbox('http://localhost.example.com/v1')).toBe('http://localhost.example.com/v1');
    expect(reachableFromSandbox('not a url')).toBe('not a url');
  });
});
