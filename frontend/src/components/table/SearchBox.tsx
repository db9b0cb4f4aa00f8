import { useEffect, useRef, useState } from "react";
import { Input } from "antd";
import { SearchOutlined } from "@ant-design/icons";

export const SEARCH_DEBOUNCE_MS = 500;

/** Writes the search parameter 500 ms after the user stops typing. */
export function SearchBox({ value, onSearch, placeholder = "Search" }: { value?: string; onSearch: (v: string) => void; placeholder?: string }) {
  const [text, setText] = useState(value ?? "");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Back/forward navigation changes the URL under us; follow it.
  useEffect(() => setText(value ?? ""), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Input
      allowClear
      prefix={<SearchOutlined />}
      placeholder={placeholder}
      value={text}
      style={{ maxWidth: 320 }}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => onSearch(next.trim()), SEARCH_DEBOUNCE_MS);
      }}
    />
  );
}
