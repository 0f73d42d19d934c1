/** The head row of a table: one column header per label. */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((label) => (
          <th scope="col" key={label}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
