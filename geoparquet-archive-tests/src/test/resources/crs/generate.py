"""Writes places.json: well-known places in the CRSs the keying tests cover, transformed by PROJ (pyproj).

Run from this folder with pyproj 3.7.2 (PROJ 9.5.1):
    python3 generate.py
The file is committed; the tests never run this script.

Each place's longitude and latitude (WGS 84) are the coordinates Wikipedia publishes for it, converted from degrees,
minutes and seconds. pyproj converts them into the CRS (longitude and easting first, as GeoParquet orders them). The
tests key the converted coordinates and expect the H3 cell of the published ones, so the expected cells owe nothing to
the code under test. For each CRS the file carries three forms of its definition:
- "projjson": PROJ's PROJJSON of the EPSG code, with its ids;
- "projjsonWithoutIds": the same document with every "id" and "ids" removed, so a reader must build the projection
  from its parameters;
- "boundProjjson": PROJ's PROJJSON of the CRS written as PROJ parameters with its datum shift to WGS 84 (a BoundCRS
  whose transformation carries the shift), without ids; present where the datum differs from WGS 84 by more than a
  metre.
"""
import json

import pyproj


def dms(degrees, minutes, seconds, hemisphere):
    value = degrees + minutes / 60 + seconds / 3600
    return -value if hemisphere in "SW" else value


# (EPSG code, place, longitude, latitude), coordinates as Wikipedia gives them for the place.
PLACES = [
    (5070, "Washington Monument", dms(77, 2, 7, "W"), dms(38, 53, 21, "N")),
    (3857, "Eiffel Tower", dms(2, 17, 40.2, "E"), dms(48, 51, 29.6, "N")),
    (27700, "Elizabeth Tower (Big Ben), London", dms(0, 7, 28.8, "W"), dms(51, 30, 2.6, "N")),
    (2154, "Notre-Dame de Paris", dms(2, 20, 59, "E"), dms(48, 51, 11, "N")),
    (32633, "Brandenburg Gate, Berlin", dms(13, 22, 39.7, "E"), dms(52, 30, 58.6, "N")),
    (3035, "Colosseum, Rome", dms(12, 29, 32.2, "E"), dms(41, 53, 24.6, "N")),
    (4269, "Golden Gate Bridge", dms(122, 28, 43, "W"), dms(37, 49, 11, "N")),
    (4326, "Sydney Opera House", dms(151, 12, 55, "E"), dms(33, 51, 25, "S")),
]

# PROJ parameters with the datum shift, for the CRSs whose datum is more than a metre from WGS 84.
BOUND = {
    27700: "+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy "
           "+towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs +type=crs",
}


def without_ids(node):
    if isinstance(node, dict):
        return {key: without_ids(value) for key, value in node.items() if key not in ("id", "ids")}
    if isinstance(node, list):
        return [without_ids(value) for value in node]
    return node


def main():
    places = []
    for code, place, lon, lat in PLACES:
        crs = pyproj.CRS.from_epsg(code)
        x, y = pyproj.Transformer.from_crs("EPSG:4326", crs, always_xy=True).transform(lon, lat)
        projjson = crs.to_json_dict()
        entry = {
            "epsg": code,
            "place": place,
            "lon": round(lon, 9),
            "lat": round(lat, 9),
            "x": x,
            "y": y,
            "projjson": projjson,
            "projjsonWithoutIds": without_ids(projjson),
        }
        if code in BOUND:
            entry["boundProjjson"] = without_ids(pyproj.CRS.from_proj4(BOUND[code]).to_json_dict())
        places.append(entry)
    with open("places.json", "w") as out:
        json.dump({"generator": "pyproj " + pyproj.__version__ + ", PROJ " + pyproj.proj_version_str, "places": places},
                  out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
