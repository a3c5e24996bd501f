#pragma once

/// The reflective JSON core: schemas, parsing and writing of described types.
#include <forma/json/from_json.hpp>
#include <forma/json/json_error.hpp>
#include <forma/json/json_schema.hpp>
#include <forma/json/parse_options.hpp>
#include <forma/json/rpc_error.hpp>
#include <forma/json/schema_error.hpp>
#include <forma/json/schema_options.hpp>
#include <forma/json/schema_validator.hpp>
#include <forma/json/strict_rules.hpp>
#include <forma/json/to_json.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/type_name.hpp>
