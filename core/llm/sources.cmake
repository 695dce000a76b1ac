# LLM client: streaming chat over libcurl (OpenAI-compatible and Anthropic), endpoints, keys, prices.
target_sources(kforge_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/anthropicstreamdecoder.cpp ${CMAKE_CURRENT_LIST_DIR}/anthropicstreamdecoder.h
  ${CMAKE_CURRENT_LIST_DIR}/credentials.cpp ${CMAKE_CURRENT_LIST_DIR}/credentials.h
  ${CMAKE_CURRENT_LIST_DIR}/endpointconfig.cpp ${CMAKE_CURRENT_LIST_DIR}/endpointconfig.h
  ${CMAKE_CURRENT_LIST_DIR}/endpointpresets.cpp ${CMAKE_CURRENT_LIST_DIR}/endpointpresets.h
  ${CMAKE_CURRENT_LIST_DIR}/llmclient.cpp ${CMAKE_CURRENT_LIST_DIR}/llmclient.h
  ${CMAKE_CURRENT_LIST_DIR}/llmerrors.cpp ${CMAKE_CURRENT_LIST_DIR}/llmerrors.h
  ${CMAKE_CURRENT_LIST_DIR}/llmrequest.h
  ${CMAKE_CURRENT_LIST_DIR}/llmresult.cpp ${CMAKE_CURRENT_LIST_DIR}/llmresult.h
  ${CMAKE_CURRENT_LIST_DIR}/llmtransferloop.cpp ${CMAKE_CURRENT_LIST_DIR}/llmtransferloop.h
  ${CMAKE_CURRENT_LIST_DIR}/llmusage.h
  ${CMAKE_CURRENT_LIST_DIR}/openaistreamdecoder.cpp ${CMAKE_CURRENT_LIST_DIR}/openaistreamdecoder.h
  ${CMAKE_CURRENT_LIST_DIR}/pricetable.cpp ${CMAKE_CURRENT_LIST_DIR}/pricetable.h
  ${CMAKE_CURRENT_LIST_DIR}/requestbuilder.cpp ${CMAKE_CURRENT_LIST_DIR}/requestbuilder.h
  ${CMAKE_CURRENT_LIST_DIR}/retrypolicy.cpp ${CMAKE_CURRENT_LIST_DIR}/retrypolicy.h
  ${CMAKE_CURRENT_LIST_DIR}/sseparser.cpp ${CMAKE_CURRENT_LIST_DIR}/sseparser.h
  ${CMAKE_CURRENT_LIST_DIR}/streamdecoder.cpp ${CMAKE_CURRENT_LIST_DIR}/streamdecoder.h)
