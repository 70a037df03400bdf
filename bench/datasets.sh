# Sourced by the bench scripts: where each benchmark lives under ../shared/datasets.
DATA=${LOGIR_SHARED_DATASETS:-../shared/datasets}
declare -A PATHS=(
  [comlq]=comlq [negconstraint]=negconstraint [boolquestions]=boolquestions-not
  [nevir]=nevir [excluir]=excluir [scifact]=scifact
)
