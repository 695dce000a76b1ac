# Contrastive optimization rounds: exemplar sampling, prompt templates, answer parsing, the round state machine.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/candidateprompts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/candidateprompts.h
  ${CMAKE_CURRENT_LIST_DIR}/exemplarsampler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exemplarsampler.h
  ${CMAKE_CURRENT_LIST_DIR}/llmexchange.cpp
  ${CMAKE_CURRENT_LIST_DIR}/llmexchange.h
  ${CMAKE_CURRENT_LIST_DIR}/parsedresponse.h
  ${CMAKE_CURRENT_LIST_DIR}/promptbuilder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/promptbuilder.h
  ${CMAKE_CURRENT_LIST_DIR}/prompttemplate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prompttemplate.h
  ${CMAKE_CURRENT_LIST_DIR}/responseparser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/responseparser.h
  ${CMAKE_CURRENT_LIST_DIR}/roundrunner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundrunner.h
  ${CMAKE_CURRENT_LIST_DIR}/roundsettings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roundsettings.h
  ${CMAKE_CURRENT_LIST_DIR}/whyfaster.cpp
  ${CMAKE_CURRENT_LIST_DIR}/whyfaster.h
)

# The built-in prompt templates; a user's copies in <AppDataLocation>/prompts/ override them (PromptTemplate).
set(_kforge_prompts_dir ${PROJECT_SOURCE_DIR}/resources/prompts)
qt_add_resources(kforge_core kforge_prompts
  PREFIX /kforge/prompts
  BASE ${_kforge_prompts_dir}
  FILES
    ${_kforge_prompts_dir}/system.md
    ${_kforge_prompts_dir}/contrastive.md
    ${_kforge_prompts_dir}/contrastive_torch.md
    ${_kforge_prompts_dir}/repair_torch.md
    ${_kforge_prompts_dir}/repair.md
    ${_kforge_prompts_dir}/compare.md)
