/** Coordinate systems used by the French samples, and their .prj texts (ESRI WKT). */
import proj4 from 'proj4';

proj4.defs(
  'EPSG:2154',
  '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs +type=crs',
);
proj4.defs('EPSG:2975', '+proj=utm +zone=40 +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs +type=crs');

export type LonLat = [number, number];
export type XY = [number, number];

export function toL93(p: LonLat): XY {
  return proj4('EPSG:4326', 'EPSG:2154', p) as XY;
}
export function fromL93(p: XY): LonLat {
  return proj4('EPSG:2154', 'EPSG:4326', p) as LonLat;
}
export function toUtm40s(p: LonLat): XY {
  return proj4('EPSG:4326', 'EPSG:2975', p) as XY;
}
export function fromUtm40s(p: XY): LonLat {
  return proj4('EPSG:2975', 'EPSG:4326', p) as LonLat;
}

/** RGF93 / Lambert-93 as ESRI WKT, in the form found in IGN shapefile deliveries. */
export const PRJ_LAMBERT93 =
  'PROJCS["RGF93_Lambert_93",GEOGCS["GCS_RGF_1993",DATUM["D_RGF_1993",SPHEROID["GRS_1980",6378137.0,298.257222101]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],' +
  'PARAMETER["False_Easting",700000.0],PARAMETER["False_Northing",6600000.0],PARAMETER["Central_Meridian",3.0],' +
  'PARAMETER["Standard_Parallel_1",44.0],PARAMETER["Standard_Parallel_2",49.0],PARAMETER["Latitude_Of_Origin",46.5],' +
  'UNIT["Meter",1.0]]';

/** RGR92 / UTM zone 40S (La Réunion) as ESRI WKT. */
export const PRJ_RGR92_UTM40S =
  'PROJCS["RGR_1992_UTM_Zone_40S",GEOGCS["GCS_RGR_1992",DATUM["D_RGR_1992",SPHEROID["GRS_1980",6378137.0,298.257222101]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],' +
  'PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",57.0],' +
  'PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
