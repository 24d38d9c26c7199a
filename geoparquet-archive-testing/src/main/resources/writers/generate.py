"""Writes the files in this folder with the tools they are named after.

Run from this folder with pyarrow 25.0.1, geopandas 1.2.0 (shapely 2.1.2, pandas), polars 1.44.2 and duckdb 1.5.6:
    python3 generate.py
The files are committed; the tests never run this script.
"""
import datetime
import os
import shutil

import duckdb
import geopandas
import polars
import pyarrow as pa
import pyarrow.parquet as pq
import shapely

# Parcels around four towns: Lyon, Paris, Bordeaux, Marseille. Six parcels each, within a few hundred metres.
TOWNS = [(4.835, 45.76), (2.35, 48.85), (-0.57, 44.84), (5.37, 43.30)]
LAND_USES = ["residential", "commercial", "agricultural"]


def parcels():
    rows = {"parcel_id": [], "land_use": [], "area_m2": [], "updated_at": [], "town": [], "geometry": []}
    for town, (lon, lat) in enumerate(TOWNS):
        for j in range(6):
            west = lon + (j % 3) * 0.001
            south = lat + (j // 3) * 0.001
            rows["parcel_id"].append(f"t{town}-{j}")
            rows["land_use"].append(LAND_USES[(town + j) % 3])
            rows["area_m2"].append(500.0 + 37.5 * j + town)
            rows["updated_at"].append(datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc))
            rows["town"].append(town)
            rows["geometry"].append(shapely.box(west, south, west + 0.0008, south + 0.0008))
    return geopandas.GeoDataFrame(rows, geometry="geometry", crs="EPSG:4326")


def main():
    frame = parcels()
    columns = ["parcel_id", "land_use", "area_m2", "updated_at", "geometry"]

    # GeoPandas: one file (geo with a file-level bbox, and the same block inside ARROW:schema), and a dataset written
    # one to_parquet call per town, as a user writes one file per partition.
    frame[columns].to_parquet("geopandas-parcels.parquet")
    frame[columns].iloc[0:0].to_parquet("geopandas-empty.parquet")
    shutil.rmtree("geopandas-per-town", ignore_errors=True)
    os.makedirs("geopandas-per-town")
    for town in range(len(TOWNS)):
        frame[frame["town"] == town][columns].to_parquet(f"geopandas-per-town/town-{town}.parquet")

    # pyarrow: the GeoPandas table as pyarrow reads it (its geo block, pandas metadata, ARROW:schema), written again.
    table = pq.read_table("geopandas-parcels.parquet")
    empty = table.slice(0, 0)
    pq.write_table(empty, "pyarrow-empty-stats.parquet")
    pq.write_table(empty, "pyarrow-empty-nostats.parquet", write_statistics=False)
    with pq.ParquetWriter("pyarrow-zero-row-groups.parquet", table.schema):
        pass
    with pq.ParquetWriter("pyarrow-empty-row-group-between.parquet", table.schema) as writer:
        writer.write_table(table.slice(0, 10))
        writer.write_table(empty)
        writer.write_table(table.slice(10))
    pq.write_table(table, "pyarrow-dictionary-pagev2-zstd.parquet", use_dictionary=True, data_page_version="2.0",
                   compression="zstd", row_group_size=8)
    pq.write_table(table, "pyarrow-plain-nostats-gzip.parquet", use_dictionary=False, write_statistics=False,
                   compression="gzip")
    # pyarrow's dataset writer, partitioned by town (the tests rename town=<n> to h3_cell=<cell>).
    shutil.rmtree("pyarrow-per-town", ignore_errors=True)
    with_town = table.append_column("town", pa.array(frame["town"].tolist(), pa.int32()))
    pq.write_to_dataset(with_town, "pyarrow-per-town", partition_cols=["town"],
                        basename_template="part-{i}.parquet")

    # DuckDB and polars, from the same rows.
    arrow_parcels = table  # noqa: F841 (read by DuckDB's replacement scan)
    duckdb.sql("COPY (SELECT * FROM arrow_parcels) TO 'duckdb-parcels.parquet' (FORMAT parquet)")
    duckdb.sql("COPY (SELECT * FROM arrow_parcels WHERE false) TO 'duckdb-empty.parquet' (FORMAT parquet)")
    polars.from_arrow(table).write_parquet("polars-parcels.parquet")
    polars.from_arrow(empty).write_parquet("polars-empty.parquet")


if __name__ == "__main__":
    main()
