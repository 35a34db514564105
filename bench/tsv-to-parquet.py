#!/usr/bin/env python3
"""Bench data: a 1-gram TSV (ngram, year, match_count, volume_count; header first) as Parquet, written by pyarrow.

    tsv-to-parquet.py <in.tsv> <out.parquet> <rows per row group>            one file
    tsv-to-parquet.py <in.tsv> <out folder>/ <rows per row group> <files>    a folder of part files

Snappy, as Spark, Athena and Glue write by default.
"""
import os
import sys

import pyarrow as pa
import pyarrow.csv as csv
import pyarrow.parquet as pq

source, target, group_rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = int(sys.argv[4]) if len(sys.argv) > 4 else 0
schema = pa.schema([('ngram', pa.string()), ('year', pa.int64()), ('match_count', pa.int64()),
                    ('volume_count', pa.int64())])
table = csv.read_csv(source, parse_options=csv.ParseOptions(delimiter='\t', quote_char=False),
                     convert_options=csv.ConvertOptions(column_types=schema))
if files == 0:
    pq.write_table(table, target, row_group_size=group_rows, compression='snappy')
else:
    os.makedirs(target, exist_ok=True)
    per = -(-table.num_rows // files)
    for i in range(files):
        part = table.slice(i * per, per)
        pq.write_table(part, os.path.join(target, f'part-{i:05d}-bench-c000.snappy.parquet'),
                       row_group_size=group_rows, compression='snappy')
